/**
 * `durable-mcp evidence export|verify` (in this repository also `npm run evidence -- ...`): the
 * evidence log of decisions on questions and of the gateway's policy decisions (docs/security.md "Evidence").
 *
 *   durable-mcp evidence export --exchange <id> [--out FILE]
 *   durable-mcp evidence export --from <time> --to <time> [--out FILE]
 *   durable-mcp evidence verify FILE --jwks <URL|FILE>
 *
 * `export` reads the admin API (`--url`, `--token` as `durable-mcp exchanges` takes them) and
 * writes the export's JSON lines; `verify` needs neither the service nor its database: the file and
 * the public keys (the service's JWKS URL, or a copy of it) are enough. Exit codes: EXIT below.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { JSONWebKeySet } from 'jose';
import { verifyEvidenceExport } from '../../lib/evidence/chain-verification';
import type { EvidencePayload } from '../../lib/evidence/evidence-entry';
import type { SignedPayload } from '../../lib/evidence/entry-signing';
import { isGatewayDecision, type GatewayDecisionPayload } from '../../lib/evidence/gateway-decision-entry';
import { CliError, EXIT, refusal, type Io } from '../exchanges/admin-requests';
import { adminTarget } from '../exchanges/admin-target';
import { findDevStack } from '../dev/dev-stack-record';

/** The exit codes of `durable-mcp exchanges`, and one of its own: the file did not verify. */
export const EVIDENCE_EXIT = { ...EXIT, notVerified: 7 } as const;

const REQUEST_TIMEOUT_MS = 120_000;

export const EVIDENCE_USAGE = `usage: durable-mcp evidence <command> [options]

commands:
  export               write the evidence of one exchange, or of a time range, as JSON lines
    --exchange ID      every entry of one exchange
    --from TIME        the entries logged from TIME (ISO 8601, 2026-01-31T00:00:00Z) ...
    --to TIME          ... to before TIME
    --out FILE         where to write it (default: standard output)
  verify FILE          check an export offline: signatures, links and digests; names the first
                       entry that fails
    --jwks URL|FILE    the service's public keys: https://<api>/.well-known/durable-mcp/evidence-jwks.json,
                       or a copy of that document

options (export):
  --url URL            the service (default $ADMIN_URL, else the durable-mcp dev stack running here,
                       else http://127.0.0.1:$PORT, port 3000)
  --token TOKEN        the admin token (default $ADMIN_TOKEN, else that dev stack's own)
  -h, --help           this text

exit codes: 0 ok, 1 server error, 2 usage, 3 unreachable, 4 unauthorized, 5 not found (or admin API off),
            7 the file does not verify`;

async function fetchText(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(
      EXIT.unreachable,
      `cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
  return { status: response.status, text: await response.text() };
}

async function exportEvidence(
  base: string,
  token: string,
  query: URLSearchParams,
  out: string | undefined,
  io: Io,
): Promise<number> {
  const { status, text } = await fetchText(`${base}/admin/evidence?${query.toString()}`, {
    authorization: `Bearer ${token}`,
    accept: 'application/x-ndjson',
  });
  if (status !== 200) {
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = {};
    }
    throw refusal({ status, body }, 'evidence export');
  }
  const count = (JSON.parse(text.slice(0, text.indexOf('\n'))) as { count: number }).count;
  if (out === undefined) io.out(text.replace(/\n$/, ''));
  else {
    await writeFile(out, text);
    io.err(`${count} entries written to ${out}`);
  }
  return EXIT.ok;
}

async function jwksFrom(source: string): Promise<JSONWebKeySet> {
  const text = /^https?:\/\//.test(source)
    ? await fetchText(source, { accept: 'application/jwk-set+json, application/json' }).then(({ status, text }) => {
        if (status !== 200) throw new CliError(EXIT.failed, `--jwks ${source}: HTTP ${status}`);
        return text;
      })
    : readFileSync(source, 'utf8');
  try {
    const jwks = JSON.parse(text) as JSONWebKeySet;
    if (!Array.isArray(jwks.keys)) throw new Error('no keys');
    return jwks;
  } catch {
    throw new CliError(EXIT.usage, `--jwks ${source} is not a JWKS (a JSON object with "keys")`);
  }
}

const answerSummaryOf = (e: EvidencePayload) =>
  `  #${e.seq} ${e.loggedAt} ${e.call.method} ${e.call.target} (exchange ${e.exchange}, round ${e.question.round}, ${e.question.key}): ` +
  (e.decision.outcome === 'taken'
    ? `${e.decision.action} taken${e.decision.decided ? ', deciding' : ''}`
    : `${e.decision.action} refused (${e.decision.refusal})`) +
  // Who the service verified (subject, and a display name only beside it: anyone may set a name).
  ` by ${e.answerer.subject}${e.answerer.name !== undefined ? ` (“${e.answerer.name}”)` : ''} via ${e.channel}`;

const gatewaySummaryOf = (e: GatewayDecisionPayload) =>
  `  #${e.seq} ${e.loggedAt} ${e.call.method} ${e.call.target} (exchange ${e.exchange}, round ${e.round}): ` +
  `gateway ${e.decision.outcome === 'approve' ? 'held for approval' : e.decision.outcome}` +
  ` by policy "${e.policy}"` +
  (e.decisionPoint
    ? ` (decision point ${e.decisionPoint.url}${e.decisionPoint.failure !== undefined ? `, failed: ${e.decisionPoint.failure}` : ''})`
    : '');

const summaryOf = (e: SignedPayload) => (isGatewayDecision(e) ? gatewaySummaryOf(e) : answerSummaryOf(e));

async function verify(file: string, jwksSource: string, io: Io): Promise<number> {
  if (!existsSync(file)) throw new CliError(EXIT.usage, `no file ${file}`);
  const jwks = await jwksFrom(jwksSource);
  const result = await verifyEvidenceExport(readFileSync(file, 'utf8'), jwks);
  if (!result.ok) {
    const entry = result.seq !== undefined ? ` (entry #${result.seq})` : '';
    io.err(`NOT VERIFIED: ${file} line ${result.line}${entry}: ${result.problem}`);
    return EVIDENCE_EXIT.notVerified;
  }
  const { header } = result;
  const scope =
    'exchange' in header.scope
      ? `exchange ${header.scope.exchange}`
      : `${header.scope.from} to ${header.scope.to}, after entry #${header.after!.seq}`;
  io.out(`verified: ${result.count} entries (${scope}), every signature, hash and link`);
  for (const entry of result.entries) io.out(summaryOf(entry));
  return EXIT.ok;
}

export async function run(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        exchange: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        out: { type: 'string' },
        jwks: { type: 'string' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${EVIDENCE_USAGE}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(EVIDENCE_USAGE);
    return EXIT.ok;
  }
  const usage = (message: string) => {
    io.err(`${message}\n\n${EVIDENCE_USAGE}`);
    return EXIT.usage;
  };
  const [command, argument, ...extra] = positionals;
  try {
    switch (command) {
      case 'verify': {
        if (argument === undefined) return usage('verify needs the file to check');
        if (extra.length > 0) return usage(`unexpected argument: ${extra[0]}`);
        if (values.jwks === undefined) return usage("verify needs --jwks: the URL of the service's keys, or a copy");
        const misplaced = (['exchange', 'from', 'to', 'out', 'url', 'token'] as const).find(
          (n) => values[n] !== undefined,
        );
        if (misplaced) return usage(`--${misplaced} is an option of export`);
        return await verify(argument, values.jwks, io);
      }
      case 'export': {
        if (argument !== undefined) return usage(`export takes no argument (got ${argument})`);
        if (values.jwks !== undefined) return usage('--jwks is an option of verify');
        const query = new URLSearchParams();
        if (values.exchange !== undefined) {
          if (values.from !== undefined || values.to !== undefined)
            return usage('--exchange, or --from and --to: not both');
          query.set('exchange', values.exchange);
        } else {
          if (values.from === undefined || values.to === undefined)
            return usage('export needs --exchange, or --from and --to');
          query.set('from', values.from);
          query.set('to', values.to);
        }
        const target = adminTarget(values, io);
        if ('usage' in target) return usage(target.usage);
        const { base, token } = target;
        return await exportEvidence(base, token, query, values.out, io);
      }
      case undefined:
        return usage('a command is needed: export or verify');
      default:
        return usage(`unknown command: ${command}`);
    }
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    io.err(error.message);
    return error.exitCode;
  }
}

/** Runs with the process's own output and environment: the `durable-mcp evidence` command. */
export function runInTerminal(argv: string[]): Promise<number> {
  return run(argv, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    devStack: () => findDevStack(process.cwd()),
  });
}
