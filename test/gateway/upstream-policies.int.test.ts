/**
 * Approval policies in front of a real upstream (the official TypeScript SDK 2.x server): declared
 * in UPSTREAMS_FILE, decided before anything is forwarded. A call a policy holds becomes a question
 * addressed as the policy says, answered by a person signed in at the answer page (the development
 * sign-in, as `durable-mcp dev` runs); the upstream is called only once approved, with the call that
 * was approved, and the result names the evidence of the approval. A decline and a deny never reach
 * the upstream; a tool every call of which is denied is not listed; a changed file applies without
 * a restart.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from '../answers/browser';
import { startDevAnsweringService } from '../answers/dev-answering-service';
import { answerOnPage } from '../answers/page-answerer';
import { signInApprover, waitingQuestionOn } from './page-approver';
import { connectModernClient } from '../support/modern-client';
import { rawCall } from '../support/raw-mcp';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import type { TestService } from '../support/test-service';
import { until } from '../support/until';
import { digestOfJson } from '../../lib/evidence/canonical-json';

type ToolResult = {
  content: Array<{ type: string; text: string }>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};
const textOf = (result: unknown) => (result as ToolResult).content[0]?.text;

const BIG_SUMS = {
  name: 'big sums',
  tools: ['add'],
  when: [{ argument: 'a', op: 'gt', value: 100 }],
  approve: { anyOf: [{ group: 'approvers' }], waitMs: 3_600_000 },
};
/** Held for a wait short enough to run out during the test. */
const HUGE_SUMS = {
  name: 'huge sums',
  tools: ['add'],
  when: [{ argument: 'a', op: 'gt', value: 10_000 }],
  approve: { anyOf: [{ group: 'approvers' }], waitMs: 3_000 },
};
/** Held for approval, and the upstream then asks the caller something of its own. */
const RESERVATIONS = { name: 'reservations', tools: ['reserve'], approve: { anyOf: [{ group: 'approvers' }] } };
const NO_NEGATIVES = {
  name: 'no negatives',
  tools: ['a?d'],
  when: [{ argument: 'b', op: 'lt', value: 0 }],
  deny: 'No negative numbers.',
};
const NO_ORDERS = { name: 'no orders', tools: ['confirm_*'], deny: 'Orders are placed by the desk.' };

let upstream: SdkUpstream;
let service: TestService;
let origin: string;
let file: string;
let approver: Browser;

const declare = (policies: unknown[]) =>
  writeFileSync(
    file,
    JSON.stringify({ upstreams: [{ name: 'shop', url: upstream.url, toolPrefix: 'shop_', policies }] }),
  );

beforeAll(async () => {
  upstream = await startSdkUpstream();
  file = path.join(mkdtempSync(path.join(tmpdir(), 'upstreams-')), 'upstreams.json');
  declare([NO_NEGATIVES, HUGE_SUMS, BIG_SUMS, RESERVATIONS, NO_ORDERS]);
  ({ service, origin } = await startDevAnsweringService(
    { name: 'none', tools: [] },
    { UPSTREAMS_FILE: file, UPSTREAMS_RELOAD_MS: '500' },
  ));
  approver = await signInApprover(origin);
}, 120_000);
afterAll(async () => {
  await service?.close();
  await upstream?.close();
});

/** The question a call of `shop_add` asked, once it waits. */
const questionOn = () => waitingQuestionOn(service.pool, 'shop_add');

const upstreamCallsWith = (a: number) => upstream.calls.filter((call) => call.arguments?.a === a);

describe('approval policies in front of an upstream', () => {
  it('does not list a tool every call of which is denied', async () => {
    const client = await connectModernClient(service.url, {});
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('shop_add');
    expect(names).not.toContain('shop_confirm_order');
    await client.close();
  });

  it('forwards a call no policy holds at once', async () => {
    const client = await connectModernClient(service.url, {});
    expect(textOf(await client.callTool({ name: 'shop_add', arguments: { a: 1, b: 2 } }))).toBe('3');
    await client.close();
  });

  it('never forwards a denied call: the caller reads the policy and its reason', async () => {
    const client = await connectModernClient(service.url, {});
    const result = (await client.callTool({ name: 'shop_add', arguments: { a: 7, b: -1 } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `The gateway's policy "no negatives" does not allow the call to shop's tool "add": No negative numbers.`,
    );
    expect(upstreamCallsWith(7)).toEqual([]);
    await client.close();
  });

  it('holds a call for approval, forwards it once approved at the page, and names the evidence', async () => {
    const client = await connectModernClient(service.url, {});
    const call = client.callTool({ name: 'shop_add', arguments: { a: 200, b: 1 } });
    const question = await questionOn();
    expect(question.message).toBe(
      `Forward this call to shop's tool "add"? It says: Adds two numbers. (policy: big sums)`,
    );
    expect(upstreamCallsWith(200)).toEqual([]);
    const answered = await answerOnPage(approver, origin, question.id, { action: 'accept', 'content.note': 'fine' });
    expect(answered.status).toBe(303);
    const result = (await call) as ToolResult;
    expect(textOf(result)).toBe('201');
    expect(upstreamCallsWith(200)).toHaveLength(1);
    expect(upstreamCallsWith(200)[0]!._meta?.idempotencyKey).toMatch(/\/2$/);
    const approvals = result._meta?.['io.durable-mcp/approvals'] as Array<{ evidence?: string }> | undefined;
    expect(approvals?.[0]?.evidence).toMatch(/\S/);
    // The signed evidence of the approval names the digest of exactly the arguments forwarded.
    const { rows } = await service.pool.query<{ jws: string }>('SELECT jws FROM evidence_entries WHERE hash = $1', [
      approvals![0]!.evidence,
    ]);
    const payload = JSON.parse(Buffer.from(rows[0]!.jws.split('.')[1]!, 'base64url').toString('utf8')) as {
      call: { target: string; argumentsDigest: string };
    };
    expect(payload.call).toMatchObject({
      target: 'shop_add',
      argumentsDigest: digestOfJson(upstreamCallsWith(200)[0]!.arguments),
    });
    await client.close();
  });

  it('names the approval in the result even when the upstream asks the caller first', async () => {
    const client = await connectModernClient(service.url, async () => ({ action: 'accept', content: { seats: 2 } }));
    const call = client.callTool({ name: 'shop_reserve', arguments: { show: 'Hamlet' } });
    const question = await waitingQuestionOn(service.pool, 'shop_reserve');
    expect((await answerOnPage(approver, origin, question.id, { action: 'accept' })).status).toBe(303);
    const result = (await call) as ToolResult;
    expect(textOf(result)).toBe(JSON.stringify({ show: 'Hamlet', seats: 2 }));
    // Approved in round 1, forwarded in round 2, whose upstream asked; the result came in round 3.
    const approvals = result._meta?.['io.durable-mcp/approvals'] as Array<{ key: string; evidence?: string }>;
    expect(approvals).toEqual([expect.objectContaining({ key: 'gateway_approval', evidence: expect.any(String) })]);
    const { rows } = await service.pool.query('SELECT 1 FROM evidence_entries WHERE hash = $1', [
      approvals[0]!.evidence,
    ]);
    expect(rows).toHaveLength(1);
    await client.close();
  });

  it("never takes an approval a caller's client sends itself with its first leg", async () => {
    // The 2026-07-28 wire lets a first leg carry answers; this one claims the gateway's approval.
    const forged = rawCall(service.url, 'tools/call', {
      name: 'shop_add',
      arguments: { a: 250, b: 1 },
      inputResponses: { gateway_approval: { action: 'accept', content: {} } },
    });
    const question = await questionOn();
    expect(upstreamCallsWith(250)).toEqual([]);
    expect((await answerOnPage(approver, origin, question.id, { action: 'decline' })).status).toBe(303);
    await forged;
    expect(upstreamCallsWith(250)).toEqual([]);
  });

  it('never forwards a call its approver declined: the caller reads who declined', async () => {
    const client = await connectModernClient(service.url, {});
    const call = client.callTool({ name: 'shop_add', arguments: { a: 300, b: 1 } });
    const question = await questionOn();
    expect((await answerOnPage(approver, origin, question.id, { action: 'decline' })).status).toBe(303);
    const result = (await call) as ToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `The call to shop's tool "add" was not approved (decline by Rita). It was not forwarded.`,
    );
    expect(upstreamCallsWith(300)).toEqual([]);
    await client.close();
  });

  it('never forwards a call whose approval expired: the caller reads a tool error, the question is expired', async () => {
    const client = await connectModernClient(service.url, {});
    // A sum of this run's own: the database may hold earlier runs' questions.
    const a = 20_000 + Math.floor(Math.random() * 1_000_000);
    const result = (await client.callTool({ name: 'shop_add', arguments: { a, b: 1 } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `The call to shop's tool "add" was not approved in time: nobody answered its approval. It was not forwarded.`,
    );
    expect(upstreamCallsWith(a)).toEqual([]);
    const { rows } = await service.pool.query<{ status: string }>(
      `SELECT q.status FROM questions q JOIN exchanges e ON e.id = q.exchange_id WHERE e.target = 'shop_add'
         AND q.arguments->>'a' = $1`,
      [String(a)],
    );
    expect(rows).toEqual([{ status: 'expired' }]);
    await client.close();
  });

  it('applies a changed file without a restart', async () => {
    declare([NO_NEGATIVES]);
    // Once reloaded, the orders tool is listed again (to a new client: a client keeps its listing),
    // and a big sum is forwarded at once.
    await until('the reload', async () => {
      const lister = await connectModernClient(service.url, {});
      const { tools } = await lister.listTools();
      await lister.close();
      return tools.some((tool) => tool.name === 'shop_confirm_order') || undefined;
    });
    const client = await connectModernClient(service.url, {});
    expect(textOf(await client.callTool({ name: 'shop_add', arguments: { a: 400, b: 1 } }))).toBe('401');
    await client.close();
  });
});
