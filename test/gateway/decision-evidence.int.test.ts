/**
 * The gateway's policy decisions as evidence, with the real stack (Temporal, Postgres, a real SDK
 * upstream, a decision point over HTTP): a call a policy denies, and each decision of a decision
 * point (forward, deny, an approval it addresses, its failure), is one signed entry of the
 * exchange's evidence export, bound to the call, the policy and the point's answer; the export of
 * an exchange that holds both kinds (the point's approval, then the approver's answer) and a range
 * of the log verify with `durable-mcp evidence verify` against the served keys.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeJwt } from 'jose';
import { digestOfJson } from '../../lib/evidence/canonical-json';
import { EVIDENCE_JWKS_PATH } from '../../lib/evidence/evidence-export';
import type { SignedPayload } from '../../lib/evidence/entry-signing';
import type { GatewayDecisionPayload } from '../../lib/evidence/gateway-decision-entry';
import type { Browser } from '../answers/browser';
import { startDevAnsweringService } from '../answers/dev-answering-service';
import { evidence } from '../answers/evidence-cli';
import { answerOnPage } from '../answers/page-answerer';
import { TEST_ADMIN_TOKEN } from '../support/admin-client';
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import type { TestService } from '../support/test-service';
import { until } from '../support/until';
import { startSumsDecisionPoint, sumsDecision, type SumsDecisionPoint } from './sums-decision-point';
import { signInApprover } from './page-approver';

const DENY_REASON = 'Closed for the day.';
const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };
const textOf = (result: unknown) => (result as ToolResult).content[0]?.text;
/** Every call's `b`: this run's own, so a call's exchange is found by its arguments' digest whatever else the database holds. */
const B = 1 + Math.floor(Math.random() * 1e9);

let upstream: SdkUpstream;
let point: SumsDecisionPoint;
let service: TestService;
let origin: string;
let approver: Browser;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'decision-evidence-'));
const startedAt = new Date();
/** The exchanges this file's calls made. */
const exchanges: string[] = [];

beforeAll(async () => {
  upstream = await startSdkUpstream();
  point = await startSumsDecisionPoint(SECRET, DENY_REASON);
  const file = path.join(scratch, 'upstreams.json');
  const policies = [
    { name: 'no negatives', tools: ['add'], when: [{ argument: 'b', op: 'lt', value: 0 }], deny: 'No negatives.' },
    { name: 'sums desk', tools: ['add'], decide: { url: point.url, secretEnv: 'SUMS_DESK_SECRET', timeoutMs: 2_000 } },
  ];
  writeFileSync(
    file,
    JSON.stringify({ upstreams: [{ name: 'shop', url: upstream.url, toolPrefix: 'shop_', policies }] }),
  );
  ({ service, origin } = await startDevAnsweringService(
    { name: 'none', tools: [] },
    { UPSTREAMS_FILE: file, SUMS_DESK_SECRET: SECRET, ADMIN_TOKEN: TEST_ADMIN_TOKEN },
  ));
  approver = await signInApprover(origin);
}, 120_000);
afterAll(async () => {
  await service?.close();
  await upstream?.close();
  await point?.close();
});

const jwksUrl = () => `${origin}${EVIDENCE_JWKS_PATH}`;

async function add(a: number, b = B): Promise<ToolResult> {
  const client = await connectModernClient(service.url, {});
  try {
    return (await client.callTool({ name: 'shop_add', arguments: { a, b } })) as ToolResult;
  } finally {
    await client.close();
  }
}

/** The exchange of the call with these arguments, by the decision recorded for it. */
async function exchangeOf(args: Record<string, unknown>): Promise<string> {
  const { rows } = await service.pool.query<{ exchange_id: string }>(
    `SELECT exchange_id FROM gateway_decisions WHERE facts->'call'->>'argumentsDigest' = $1`,
    [digestOfJson(args)],
  );
  expect(rows).toHaveLength(1);
  exchanges.push(rows[0]!.exchange_id);
  return rows[0]!.exchange_id;
}

/** `durable-mcp evidence export <selection>` to `file`, then `verify` of it: what verify said. */
async function exportAndVerify(file: string, ...selection: string[]) {
  const exported = await evidence('export', ...selection, '--out', file, '--url', origin, '--token', TEST_ADMIN_TOKEN);
  expect(exported.code).toBe(0);
  const verified = await evidence('verify', file, '--jwks', jwksUrl());
  expect(verified).toMatchObject({ code: 0 });
  return verified;
}

/** The exchange's export, written and verified as an auditor would: its entries' payloads. */
async function verifiedExport(exchangeId: string): Promise<SignedPayload[]> {
  const file = path.join(scratch, `${exchangeId}.jsonl`);
  await exportAndVerify(file, '--exchange', exchangeId);
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => decodeJwt((JSON.parse(line) as { jws: string }).jws) as unknown as SignedPayload);
}

describe("the gateway's policy decisions as evidence", () => {
  it('a call a policy denies is one signed entry, bound to the call and the policy', async () => {
    const args = { a: 7, b: -B };
    expect((await add(7, -B)).isError).toBe(true);
    const entries = await verifiedExport(await exchangeOf(args));
    expect(entries).toEqual([
      expect.objectContaining({
        typ: 'durable-mcp/evidence',
        v: 1,
        kind: 'gateway-decision',
        exchangeSeq: 1,
        exchangePrev: null,
        round: 1,
        call: {
          method: 'tools/call',
          target: 'shop_add',
          upstream: 'shop',
          tool: 'add',
          argumentsDigest: digestOfJson(args),
          caller: expect.objectContaining({ subject: expect.any(String) }),
        },
        policy: 'no negatives',
        decision: { outcome: 'deny', reason: 'No negatives.' },
      }),
    ]);
    expect(entries[0]).not.toHaveProperty('decisionPoint');
  });

  it("a decision point's forward and deny are one entry each, naming its URL and the digest of its answer", async () => {
    expect(textOf(await add(5))).toBe(String(5 + B));
    expect((await add(5_000)).isError).toBe(true);
    const forwarded = await verifiedExport(await exchangeOf({ a: 5, b: B }));
    expect(forwarded).toEqual([
      expect.objectContaining({
        kind: 'gateway-decision',
        policy: 'sums desk',
        decision: { outcome: 'forward' },
        decisionPoint: {
          url: point.url,
          status: 200,
          responseDigest: digestOfJson(sumsDecision(5, DENY_REASON)),
          onError: 'deny',
        },
      }),
    ]);
    const denied = await verifiedExport(await exchangeOf({ a: 5_000, b: B }));
    expect(denied).toEqual([
      expect.objectContaining({
        decision: { outcome: 'deny', reason: 'Closed for the day.' },
        decisionPoint: expect.objectContaining({ responseDigest: digestOfJson(sumsDecision(5_000, DENY_REASON)) }),
      }),
    ]);
  });

  it("a decision point's failure is its fail-closed denial, saying why", async () => {
    expect((await add(50_000)).isError).toBe(true);
    const [entry] = (await verifiedExport(await exchangeOf({ a: 50_000, b: B }))) as GatewayDecisionPayload[];
    expect(entry).toMatchObject({
      decision: { outcome: 'deny', reason: expect.stringContaining('fails closed') },
      decisionPoint: { url: point.url, status: 503, failure: 'HTTP 503', onError: 'deny' },
    });
    expect(entry!.decisionPoint).not.toHaveProperty('responseDigest');
  });

  it("an exchange's export holds both kinds in one chain: the point's approval, then the approver's answer", async () => {
    const client = await connectModernClient(service.url, {});
    const call = client.callTool({ name: 'shop_add', arguments: { a: 500, b: B } });
    const exchangeId = await until(
      'the decision point’s approval',
      async () =>
        (
          await service.pool.query<{ exchange_id: string }>(
            `SELECT exchange_id FROM gateway_decisions WHERE facts->'call'->>'argumentsDigest' = $1`,
            [digestOfJson({ a: 500, b: B })],
          )
        ).rows[0]?.exchange_id,
    );
    exchanges.push(exchangeId);
    const question = await until(
      'the approval question',
      async () =>
        (
          await service.pool.query<{ id: string }>(
            `SELECT id FROM questions WHERE exchange_id = $1 AND status = 'waiting'`,
            [exchangeId],
          )
        ).rows[0],
    );
    expect((await answerOnPage(approver, origin, question.id, { action: 'accept' })).status).toBe(303);
    expect(textOf(await call)).toBe(String(500 + B));
    await client.close();
    const entries = await until('both entries', async () => {
      const exported = await verifiedExport(exchangeId);
      return exported.length === 2 ? exported : undefined;
    });
    expect(entries.map((entry) => [entry.exchangeSeq, (entry as { kind?: string }).kind ?? 'answer'])).toEqual([
      [1, 'gateway-decision'],
      [2, 'answer'],
    ]);
    expect(entries[0]).toMatchObject({
      round: 1,
      decision: { outcome: 'approve', approve: { anyOf: [{ group: 'approvers' }] } },
    });
    expect(entries[1]).toMatchObject({ decision: { outcome: 'taken', action: 'accept' } });
  });

  it('a range of the log with both kinds verifies, and names each decision', async () => {
    const file = path.join(scratch, 'range.jsonl');
    const to = new Date(Date.now() + 60_000).toISOString();
    const verified = await exportAndVerify(file, '--from', startedAt.toISOString(), '--to', to);
    expect(verified.out).toContain('gateway deny by policy "no negatives"');
    expect(verified.out).toContain(`gateway forward by policy "sums desk" (decision point ${point.url})`);
    expect(verified.out).toMatch(/accept taken, deciding by \S+/);
  });

  it('signs each decision once: one entry per exchange and round, whatever asks for exports', async () => {
    const { rows } = await service.pool.query<{ unsigned: string; entries: string; decisions: string }>(
      `SELECT (SELECT count(*) FROM gateway_decisions WHERE exchange_id = ANY($1) AND signed_seq IS NULL) AS unsigned,
              (SELECT count(*) FROM evidence_entries WHERE exchange_id = ANY($1) AND decision_round IS NOT NULL) AS entries,
              (SELECT count(*) FROM gateway_decisions WHERE exchange_id = ANY($1)) AS decisions`,
      [[...new Set(exchanges)]],
    );
    expect(rows[0]).toEqual({ unsigned: '0', entries: '5', decisions: '5' });
  });
});
