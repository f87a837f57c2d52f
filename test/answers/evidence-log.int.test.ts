/**
 * The evidence log with the real stack: real tokens from a real authorization server, Temporal and
 * Postgres. Alice's call waits on a question for a holder of refunds:approve; dana answers it through
 * the answer API with a stale digest (refused), then for real (taken), then again (refused): three
 * entries, signed and linked in the transactions that judged them. `durable-mcp evidence export`
 * writes the exchange's entries (and a time range of the log) to a file that `durable-mcp evidence
 * verify` checks against the JWKS the API serves; one byte changed in the file, or one entry changed
 * in Postgres and exported again, and the verification fails naming that entry. The tool's result
 * names the evidence entry of the approval it rests on (`_meta["io.durable-mcp/approvals"]`).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { answerer, type HandlerSet } from '@durable-mcp/handlers';
import { decodeJwt } from 'jose';
import { digestOfJson } from '../../lib/evidence/canonical-json';
import type { EvidencePayload } from '../../lib/evidence/evidence-entry';
import { EVIDENCE_JWKS_PATH } from '../../lib/evidence/evidence-export';
import { admin, TEST_ADMIN_TOKEN } from '../support/admin-client';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack';
import { until } from '../support/until';
import { changeOneByte, evidence } from './evidence-cli';
import { refundTool } from './refund-tool';

const handlers: HandlerSet = {
  name: 'refunds',
  tools: [refundTool('refund', () => ({ anyOf: [answerer.scope('refunds:approve')], excludeCaller: true }))],
};

let stack: OAuthStack;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-evidence-'));
beforeAll(async () => {
  stack = await startOAuthStack({ ADMIN_TOKEN: TEST_ADMIN_TOKEN }, { handlers });
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const origin = () => stack.service.url.replace(/\/mcp$/, '');
const jwksUrl = () => `${origin()}${EVIDENCE_JWKS_PATH}`;

const exportExchange = (exchangeId: string, file: string) =>
  evidence('export', '--exchange', exchangeId, '--out', file, '--url', origin(), '--token', TEST_ADMIN_TOKEN);

/** The signed payloads of an export's entries, in order. */
const payloadsOf = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => decodeJwt((JSON.parse(line) as { jws: string }).jws) as unknown as EvidencePayload);

async function answerAsDana(id: string, body: Record<string, unknown>) {
  const authorization = await stack.serviceBearer('dana', 'refunds:approve');
  const res = await fetch(`${origin()}/answers/api/questions/${id}`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { taken?: boolean; error?: { code: string } } };
}

let exchangeId = '';
let exported = '';
const startedAt = new Date();

describe('the evidence log', () => {
  it('serves every public key of the ring as a JWKS, to anyone', async () => {
    const res = await fetch(jwksUrl());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/jwk-set\+json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const jwks = (await res.json()) as { keys: Array<Record<string, string>> };
    expect(jwks.keys).toEqual([
      { kty: 'OKP', crv: 'Ed25519', x: expect.stringMatching(/^[\w-]{43}$/), kid: 'testev1', alg: 'EdDSA', use: 'sig' },
    ]);
    expect(JSON.stringify(jwks)).not.toMatch(/"d"/);
  });

  it('holds one signed entry per decision, bound to the call, what was shown and who answered, and the export verifies', async () => {
    const client = new Client(
      { name: 'desk', version: '1.0.0' },
      { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(stack.service.url), {
        requestInit: { headers: { authorization: await stack.bearer('alice') } },
      }),
    );
    const call = client.callTool(
      { name: 'refund', arguments: { order: 'EV-1' } },
      { timeout: 60_000, resetTimeoutOnProgress: true, onprogress: () => undefined },
    );
    call.catch(() => undefined); // awaited below
    const authorization = await stack.serviceBearer('dana', 'refunds:approve');
    const question = await until('the question on EV-1', async () => {
      const res = await fetch(`${origin()}/answers/api/questions`, { headers: { authorization } });
      const { questions } = (await res.json()) as {
        questions: Array<{ id: string; exchangeId: string; message: string; shownDigest: string }>;
      };
      return questions.find((q) => q.message === 'Refund EV-1?');
    });
    exchangeId = question.exchangeId;

    expect(
      (await answerAsDana(question.id, { action: 'accept', content: {}, shownDigest: 'not-shown' })).body,
    ).toMatchObject({
      error: { code: 'stale' },
    });
    const taken = await answerAsDana(question.id, {
      action: 'accept',
      content: { note: 'ok' },
      shownDigest: question.shownDigest,
    });
    expect(taken.body.taken).toBe(true);
    expect(await answerAsDana(question.id, { action: 'decline', shownDigest: question.shownDigest })).toMatchObject({
      status: 409,
    });
    const result = await call;
    expect(textOf(result)).toBe('accept for EV-1 by dana via api (ok)');
    await client.close();

    exported = path.join(scratch, 'exchange.jsonl');
    const written = await exportExchange(exchangeId, exported);
    expect(written).toMatchObject({ code: 0, err: `3 entries written to ${exported}` });
    const verified = await evidence('verify', exported, '--jwks', jwksUrl());
    expect(verified.err).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.out).toMatch(/^verified: 3 entries \(exchange [0-9a-f-]+\), every signature, hash and link/);
    expect(verified.out).toContain('accept refused (stale) by dana via api');
    expect(verified.out).toContain('accept taken, deciding by dana via api');
    expect(verified.out).toContain('decline refused (closed) by dana via api');

    const [stale, accepted, closed] = payloadsOf(exported);
    const danaId = `${stack.as.issuer}|client:dana`;
    for (const entry of [stale!, accepted!, closed!]) {
      expect(entry).toMatchObject({
        typ: 'durable-mcp/evidence',
        exchange: exchangeId,
        call: {
          method: 'tools/call',
          target: 'refund',
          argumentsDigest: digestOfJson({ order: 'EV-1' }),
          caller: { id: stack.principal('alice'), subject: 'alice' },
        },
        question: {
          id: question.id,
          round: 1,
          key: 'approval',
          message: 'Refund EV-1?',
          shownDigest: question.shownDigest,
        },
        answerer: { id: danaId, subject: 'dana', scopes: expect.arrayContaining(['refunds:approve']) },
        channel: 'api',
      });
    }
    expect(stale!.decision).toMatchObject({ outcome: 'refused', refusal: 'stale', shownDigest: 'not-shown' });
    expect(accepted!.decision).toMatchObject({
      outcome: 'taken',
      action: 'accept',
      decided: true,
      responseDigest: digestOfJson({ action: 'accept', content: { note: 'ok' } }),
      shownDigest: question.shownDigest,
    });
    expect(closed!.decision).toMatchObject({ outcome: 'refused', action: 'decline', refusal: 'closed' });
    // Linked in the exchange and in the whole log.
    expect([stale!.exchangeSeq, accepted!.exchangeSeq, closed!.exchangeSeq]).toEqual([1, 2, 3]);
    expect([stale!.exchangePrev === null, accepted!.seq > stale!.seq, closed!.seq > accepted!.seq]).toEqual([
      true,
      true,
      true,
    ]);

    // The result names the evidence entry of the approval it rests on (the handler's ctx.answeredBy has it too).
    const acceptedHash = (JSON.parse(readFileSync(exported, 'utf8').split('\n')[2]!) as { hash: string }).hash;
    expect(result._meta?.['io.durable-mcp/approvals']).toEqual([
      { key: 'approval', by: danaId, action: 'accept', via: 'api', evidence: acceptedHash },
    ]);

    // Each entry names the attempt Postgres keeps (the admin view's attempts).
    const { rows } = await stack.service.pool.query<{ id: string; taken: boolean; refusal: string | null }>(
      'SELECT id, taken, refusal FROM question_answers WHERE id = ANY($1) ORDER BY at',
      [[stale!, accepted!, closed!].map((e) => e.decision.answerId)],
    );
    expect(rows.map((r) => [r.taken, r.refusal])).toEqual([
      [false, 'stale'],
      [true, null],
      [false, 'closed'],
    ]);
  }, 90_000);

  it('fails the file with one byte changed, naming the entry', async () => {
    const tampered = path.join(scratch, 'tampered.jsonl');
    const seq = changeOneByte(exported, 2, tampered); // the taken entry
    const verified = await evidence('verify', tampered, '--jwks', jwksUrl());
    expect(verified.code).toBe(7);
    expect(verified.err).toMatch(
      new RegExp(`^NOT VERIFIED: ${tampered} line 3 \\(entry #${seq}\\): its signature does not verify`),
    );
  });

  it('fails an export made after one entry was changed in Postgres, naming the entry', async () => {
    const [, accepted] = payloadsOf(exported);
    const { rows } = await stack.service.pool.query<{ jws: string }>(
      'SELECT jws FROM evidence_entries WHERE seq = $1',
      [accepted!.seq],
    );
    const original = rows[0]!.jws;
    const [header, , signature] = original.split('.');
    const forged = { ...accepted!, decision: { ...accepted!.decision, action: 'decline' } };
    const forgedJws = `${header}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    await stack.service.pool.query('UPDATE evidence_entries SET jws = $2 WHERE seq = $1', [accepted!.seq, forgedJws]);
    try {
      const again = path.join(scratch, 'again.jsonl');
      expect((await exportExchange(exchangeId, again)).code).toBe(0);
      const verified = await evidence('verify', again, '--jwks', jwksUrl());
      expect(verified.code).toBe(7);
      expect(verified.err).toContain(`line 3 (entry #${accepted!.seq}): its signature does not verify`);
    } finally {
      await stack.service.pool.query('UPDATE evidence_entries SET jws = $2 WHERE seq = $1', [accepted!.seq, original]);
    }
  });

  it('exports a time range that verifies on its own, after entries it does not hold', async () => {
    const file = path.join(scratch, 'range.jsonl');
    const written = await evidence(
      'export',
      '--from',
      startedAt.toISOString(),
      '--to',
      new Date(Date.now() + 1_000).toISOString(),
      '--out',
      file,
      '--url',
      origin(),
      '--token',
      TEST_ADMIN_TOKEN,
    );
    expect(written.code).toBe(0);
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { links: string; after: { seq: number } };
    expect(header.links).toBe('log');
    const ours = payloadsOf(file).filter((e) => e.exchange === exchangeId);
    expect(ours).toHaveLength(3);
    const verified = await evidence('verify', file, '--jwks', jwksUrl());
    expect(verified.err).toBe('');
    expect(verified.out).toMatch(new RegExp(`^verified: \\d+ entries \\(.* after entry #${header.after.seq}\\)`));
  });

  it('answers a malformed export request with 400 naming the parameter', async () => {
    expect(await admin(stack.service.url, '/evidence?exchange=nope')).toMatchObject({
      status: 400,
      body: { error: { code: 'invalid_parameter', parameter: 'exchange' } },
    });
    expect(await admin(stack.service.url, '/evidence?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z')).toMatchObject(
      {
        status: 400,
        body: { error: { parameter: 'to' } },
      },
    );
  });
});

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;
