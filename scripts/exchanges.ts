/**
 * `npm run exchanges -- list|show|cancel`: the admin API from a terminal.
 *
 *   npm run exchanges -- list [--status running] [--method tools/call] [--target NAME] [--era modern|legacy]
 *                             [--session TAG] [--principal KEY] [--handler-version V] [--older-than S] [--newer-than S]
 *                             [--limit N] [--cursor C] [--all]
 *   npm run exchanges -- show <exchange id>
 *   npm run exchanges -- cancel <exchange id> [--reason TEXT]
 *
 * Every command takes `--url` (default ADMIN_URL, else http://127.0.0.1:$PORT or :3000), `--token`
 * (default ADMIN_TOKEN) and `--json` (the API's answer as it came). Exit codes: EXIT below.
 */
import { parseArgs } from 'node:util';
import { detailLines, listLines, type ExchangeDetailView, type ExchangeRow } from './exchanges-format';

export const EXIT = {
  ok: 0,
  /** The server answered with an error not listed below (400, 5xx). */
  failed: 1,
  usage: 2,
  /** No answer: the server is down or the URL is wrong. */
  unreachable: 3,
  /** 401: no token, or not the server's. */
  unauthorized: 4,
  /** 404: no such exchange, or the admin API is off (no ADMIN_TOKEN on the server). */
  notFound: 5,
  /** 409: the exchange to cancel had already ended. */
  alreadyEnded: 6,
} as const;

const USAGE = `usage: npm run exchanges -- <command> [options]

commands:
  list                 exchanges, newest first
    --status S[,S]     running, completed, failed, expired, capped, cancelled, terminated
    --method M         tools/call, prompts/get, resources/read
    --target NAME      a tool or prompt name, or a resource URI
    --era E            modern or legacy
    --session TAG      a handshake-era session's tag (as logs name it) or id
    --principal KEY    who the exchanges belong to: a principal's key (anonymous, or issuer|subject[|client])
    --handler-version V
                       started by this version of the handlers, exactly (demo@0.1.0, acme-tools@1.2.0)
    --older-than S     created more than S seconds ago
    --newer-than S     created less than S seconds ago
    --limit N          rows per page (1-200, default 50)
    --cursor C         the page after a previous one
    --all              follow the pages to the end (at most 10000 rows)
  show <id>            one exchange: its rounds (asks, answers, timings, outcome) and Temporal UI link
  cancel <id>          end a running exchange as a client cancel does
    --reason TEXT      what the exchange's error says (default: cancelled by an operator)

options:
  --url URL            the service (default $ADMIN_URL, else http://127.0.0.1:$PORT, port 3000)
  --token TOKEN        the admin token (default $ADMIN_TOKEN)
  --json               print the API's JSON answer instead of tables
  -h, --help           this text

exit codes: 0 ok, 1 server error, 2 usage, 3 unreachable, 4 unauthorized, 5 not found (or admin API off), 6 already ended`;

/** At most this many rows with --all, so a huge table cannot run away. */
const ALL_ROWS_CAP = 10_000;
const REQUEST_TIMEOUT_MS = 60_000;

class CliError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

interface Io {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
}

interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

async function request(
  base: string,
  token: string,
  method: 'GET' | 'POST',
  path: string,
  body?: object,
): Promise<ApiAnswer> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CliError(
      EXIT.unreachable,
      `cannot reach ${base}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
  const text = await response.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    parsed = {};
  }
  return { status: response.status, body: parsed };
}

/** Turns an error answer into the exit code and message it means. */
function refusal(answer: ApiAnswer, what: string): CliError {
  const error = answer.body.error as { message?: string; parameter?: string } | undefined;
  const message = error?.message ?? `HTTP ${answer.status}`;
  switch (answer.status) {
    case 401:
      return new CliError(
        EXIT.unauthorized,
        `unauthorized: ${message} (set --token or ADMIN_TOKEN to the server's ADMIN_TOKEN)`,
      );
    case 404:
      return new CliError(
        EXIT.notFound,
        error ? `not found: ${message}` : `not found: is the admin API on? (the server needs ADMIN_TOKEN) [${what}]`,
      );
    case 409:
      return new CliError(EXIT.alreadyEnded, message);
    default:
      return new CliError(EXIT.failed, `${what} failed (HTTP ${answer.status}): ${message}`);
  }
}

const LIST_FILTERS = {
  status: 'status',
  method: 'method',
  target: 'target',
  era: 'era',
  session: 'session',
  principal: 'principal',
  'handler-version': 'handlerVersion',
  'older-than': 'olderThan',
  'newer-than': 'newerThan',
  limit: 'limit',
} as const;

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
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        status: { type: 'string' },
        method: { type: 'string' },
        target: { type: 'string' },
        era: { type: 'string' },
        session: { type: 'string' },
        principal: { type: 'string' },
        'handler-version': { type: 'string' },
        'older-than': { type: 'string' },
        'newer-than': { type: 'string' },
        limit: { type: 'string' },
        cursor: { type: 'string' },
        all: { type: 'boolean' },
        reason: { type: 'string' },
      },
    });
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.out(USAGE);
    return EXIT.ok;
  }
  const [command, id, ...extra] = positionals;
  const usage = (message: string) => {
    io.err(`${message}\n\n${USAGE}`);
    return EXIT.usage;
  };
  if (!command) return usage('a command is needed: list, show or cancel');
  if (!['list', 'show', 'cancel'].includes(command)) return usage(`unknown command: ${command}`);
  if (command === 'list' && id !== undefined) return usage(`list takes no argument (got ${id})`);
  if (command !== 'list' && id === undefined) return usage(`${command} needs an exchange id`);
  if (extra.length > 0) return usage(`unexpected argument: ${extra[0]}`);
  const listOnly = [
    'status',
    'method',
    'target',
    'era',
    'session',
    'principal',
    'handler-version',
    'older-than',
    'newer-than',
    'limit',
    'cursor',
    'all',
  ];
  const misplaced = listOnly.find((name) => command !== 'list' && values[name as keyof typeof values] !== undefined);
  if (misplaced) return usage(`--${misplaced} is an option of list`);
  if (command !== 'cancel' && values.reason !== undefined) return usage('--reason is an option of cancel');

  const token = values.token ?? io.env.ADMIN_TOKEN;
  if (!token) return usage('no admin token: pass --token or set ADMIN_TOKEN');
  const base = (values.url ?? io.env.ADMIN_URL ?? `http://127.0.0.1:${io.env.PORT ?? 3000}`).replace(/\/+$/, '');
  if (!/^https?:\/\/\S+$/.test(base)) return usage(`--url must be an http:// or https:// URL (got ${base})`);

  try {
    switch (command) {
      case 'list':
        return await list(base, token, values, io);
      case 'show':
        return await show(base, token, id!, values.json === true, io);
      default:
        return await cancel(base, token, id!, values.reason, values.json === true, io);
    }
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    io.err(error.message);
    return error.exitCode;
  }
}

async function list(
  base: string,
  token: string,
  values: Partial<Record<string, string | boolean>>,
  io: Io,
): Promise<number> {
  const query = new URLSearchParams();
  for (const [flag, parameter] of Object.entries(LIST_FILTERS)) {
    const value = values[flag];
    if (typeof value === 'string') query.set(parameter, value);
  }
  let cursor = typeof values.cursor === 'string' ? values.cursor : undefined;
  const rows: ExchangeRow[] = [];
  const pages: unknown[] = [];
  for (;;) {
    const page = new URLSearchParams(query);
    if (cursor) page.set('cursor', cursor);
    const answer = await request(base, token, 'GET', `/admin/exchanges${page.size ? `?${page}` : ''}`, undefined);
    if (answer.status !== 200) throw refusal(answer, 'list');
    pages.push(answer.body);
    rows.push(...((answer.body.exchanges as ExchangeRow[]) ?? []));
    cursor = answer.body.nextCursor as string | undefined;
    if (!values.all || !cursor || rows.length >= ALL_ROWS_CAP) break;
  }
  if (values.json) {
    io.out(
      JSON.stringify(values.all ? { exchanges: rows, ...(cursor ? { nextCursor: cursor } : {}) } : pages[0], null, 2),
    );
    return EXIT.ok;
  }
  for (const line of listLines(rows)) io.out(line);
  if (cursor) {
    io.out('');
    io.out(
      values.all
        ? `Stopped at ${rows.length} rows; the rest: npm run exchanges -- list --cursor ${cursor}`
        : `More: npm run exchanges -- list --cursor ${cursor} (same filters), or --all`,
    );
  }
  return EXIT.ok;
}

async function show(base: string, token: string, id: string, json: boolean, io: Io): Promise<number> {
  const answer = await request(base, token, 'GET', `/admin/exchanges/${encodeURIComponent(id)}`);
  if (answer.status !== 200) throw refusal(answer, 'show');
  if (json) io.out(JSON.stringify(answer.body, null, 2));
  else for (const line of detailLines(answer.body as unknown as ExchangeDetailView)) io.out(line);
  return EXIT.ok;
}

async function cancel(
  base: string,
  token: string,
  id: string,
  reason: string | undefined,
  json: boolean,
  io: Io,
): Promise<number> {
  const answer = await request(
    base,
    token,
    'POST',
    `/admin/exchanges/${encodeURIComponent(id)}/cancel`,
    reason !== undefined ? { reason } : {},
  );
  if (answer.status !== 200 && answer.status !== 202) throw refusal(answer, 'cancel');
  if (json) {
    io.out(JSON.stringify(answer.body, null, 2));
    return EXIT.ok;
  }
  const exchange = answer.body.exchange as ExchangeRow;
  if (answer.status === 202)
    io.out(`Cancel of ${exchange.id} signalled; no worker has recorded the ending yet (it will when one runs).`);
  else if (exchange.status === 'cancelled') io.out(`Cancelled ${exchange.id} (${exchange.method} ${exchange.target}).`);
  else io.out(`${exchange.id} ended as ${exchange.status} before the cancel applied.`);
  return EXIT.ok;
}

if (require.main === module) {
  run(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`exchanges failed: ${(error as Error).stack ?? error}\n`);
      process.exitCode = EXIT.failed;
    },
  );
}
