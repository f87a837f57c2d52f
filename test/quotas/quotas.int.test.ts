/**
 * Quotas of calls end to end, with real tokens from a real authorization server: a principal past
 * its per-minute quota is refused its next new exchange with -32000, HTTP 429, `Retry-After` and
 * the window's end, by the official client of each era; nothing of the refused call is in Postgres
 * or Temporal; another principal calls on; an answer to an exchange already running is never
 * refused (a 2026-07-28 retry, a legacy response, a task's `tasks/update`); a rule for a group of
 * tools and a rule per tenant (QUOTAS_FILE, TENANT_CLAIM) refuse by their own names, and
 * each refusal is counted in mcp_quota_refusals_total.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { principalId } from '../../lib/exchange/principal';
import { SERVER_BUSY } from '../../lib/protocol/rpc-error';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack';
import { scrape, valueOf } from '../support/prometheus-text';
import { accept, rawCall } from '../support/raw-mcp';
import { createdTaskId, taskClient } from '../support/task-client';
import { until } from '../support/until';
import {
  exchangeRows,
  freshSubject,
  lastRefusal,
  legacyClient,
  modernClient,
  QUOTA_HANDLERS,
  roomInMinute,
  workflowsOf,
} from './quota-support';

const CLIENT = 'desk';
let stack: OAuthStack;

/** A person of its own (a subject no earlier run used), with their token and principal key. */
async function person(name: string, claims: Record<string, unknown> = {}) {
  const subject = freshSubject(name);
  return {
    authorization: await stack.personBearer(subject, CLIENT, 'mcp', claims),
    id: principalId(stack.as.issuer, subject, CLIENT),
  };
}

/** Postgres and Temporal both hold exactly `n` exchanges of `principal`, and still do a moment later. */
async function startedExactly(principal: string, n: number): Promise<void> {
  expect(await exchangeRows(stack.service.pool, principal)).toBe(n);
  await until('the workflows to be visible', async () =>
    (await workflowsOf(stack.service.temporal, principal)) >= n ? true : undefined,
  );
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(await workflowsOf(stack.service.temporal, principal)).toBe(n);
}

/** A refusal's body and headers, as the quota's rule and window say. */
function expectRefused(refusal: ReturnType<typeof lastRefusal>, quota: string, limit: number): void {
  expect(refusal.error).toMatchObject({
    code: SERVER_BUSY,
    message: expect.stringContaining(`Quota exceeded: ${quota} allows ${limit} calls per minute`),
    data: { quota, window: 'minute', windowS: 60, limit },
  });
  const { retryAfterS, resetAt } = refusal.error.data as { retryAfterS: number; resetAt: string };
  expect(refusal.retryAfter).toBe(String(retryAfterS));
  // The end of this minute: a whole minute, at most 60 s away.
  expect(Date.parse(resetAt) % 60_000).toBe(0);
  expect(Date.parse(resetAt) - Date.now()).toBeLessThanOrEqual(60_000);
  expect(retryAfterS).toBeGreaterThanOrEqual(1);
  expect(retryAfterS).toBeLessThanOrEqual(60);
}

const refusals = async (quota: string) =>
  valueOf(await scrape(stack.service.url.replace(/\/mcp$/, '/metrics')), 'mcp_quota_refusals_total', {
    quota,
    window: 'minute',
  });

beforeAll(async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'quotas-')), 'quotas.json');
  writeFileSync(
    file,
    JSON.stringify({
      quotas: [
        { name: 'writes', tools: ['write_*'], perMinute: 1 },
        { name: 'team', per: 'tenant', perMinute: 3 },
      ],
    }),
  );
  stack = await startOAuthStack(
    { QUOTA_CALLS_PER_MINUTE_PER_PRINCIPAL: '2', TENANT_CLAIM: 'tid', QUOTAS_FILE: file },
    { handlers: QUOTA_HANDLERS },
  );
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

beforeEach(() => roomInMinute(), 30_000);

describe('a principal past its per-minute quota (2026-07-28, the official 2.x client)', () => {
  it('is refused its next call with -32000, 429, Retry-After and the reset time; nothing of it starts; another principal calls on', async () => {
    const ada = await person('ada');
    const modern = await modernClient(stack.service.url, ada.authorization);
    try {
      expect((await modern.call('ask')).content).toEqual([{ type: 'text', text: 'asked and answered' }]);
      expect((await modern.call('read_record')).isError).toBeFalsy();
      const before = await refusals('per-principal');
      // The 2.x client's HTTP error carries the status, and the body with the JSON-RPC error.
      await expect(modern.call('read_record')).rejects.toMatchObject({
        status: 429,
        message: expect.stringContaining('Quota exceeded'),
      });
      expectRefused(lastRefusal(modern.seen), 'per-principal', 2);
      expect(await refusals('per-principal')).toBe(before + 1);
      await startedExactly(ada.id, 2);

      const bea = await person('bea');
      const other = await modernClient(stack.service.url, bea.authorization);
      try {
        expect((await other.call('read_record')).content).toEqual([{ type: 'text', text: 'read_record done' }]);
      } finally {
        await other.client.close();
      }
    } finally {
      await modern.client.close();
    }
  });

  it('still has its answer to a running exchange taken, whatever its quota', async () => {
    const cy = await person('cy');
    const leg = (params: Record<string, unknown>) =>
      rawCall(
        stack.service.url,
        'tools/call',
        params,
        { elicitation: {} },
        { headers: { authorization: cy.authorization } },
      );
    const asked = await leg({ name: 'ask', arguments: {} });
    expect(asked.body.result?.resultType).toBe('input_required');
    expect((await leg({ name: 'read_record', arguments: {} })).body.result?.content).toBeDefined();
    expect((await leg({ name: 'read_record', arguments: {} })).status).toBe(429);
    const answered = await leg({
      name: 'ask',
      arguments: {},
      requestState: asked.body.result!.requestState,
      inputResponses: { go: accept({}) },
    });
    expect(answered.status).toBe(200);
    expect(answered.body.result?.content).toEqual([{ type: 'text', text: 'asked and answered' }]);
  });

  it('is refused a task too, and its tasks/update of a running task is taken', async () => {
    const di = await person('di');
    const tasks = taskClient(() => stack.service.url, { authorization: di.authorization });
    const taskId = createdTaskId(await tasks.call('ask'));
    createdTaskId(await tasks.call('ask'));
    const refused = await tasks.call('ask');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: SERVER_BUSY, data: { quota: 'per-principal', limit: 2 } });
    const { rows } = await stack.service.pool.query(
      'SELECT count(*)::int AS n FROM exchange_tasks WHERE principal = $1',
      [di.id],
    );
    expect(rows[0].n).toBe(2);
    await tasks.until(taskId, (task) => task.status === 'input_required');
    expect((await tasks.update(taskId, { go: accept({}) })).status).toBe(200);
    await tasks.until(taskId, (task) => task.status === 'completed');
  });
});

describe('a principal past its per-minute quota (2025-11-25, the official 1.x client)', () => {
  it('is refused its next call with 429 and Retry-After; its answer to the call already running is taken', async () => {
    const eve = await person('eve');
    let release!: () => void;
    const answer = new Promise<void>((resolve) => (release = resolve));
    const legacy = await legacyClient(stack.service.url, eve.authorization, answer);
    try {
      // The first call waits on its elicitation, unanswered, while the quota fills up.
      const first = legacy.call('ask');
      await until('the elicitation', async () => (legacy.elicited() === 1 ? true : undefined));
      expect((await legacy.call('read_record')).isError).toBeFalsy();
      // The 1.x client's transport error carries the HTTP status as its code, and the body.
      await expect(legacy.call('read_record')).rejects.toMatchObject({
        code: 429,
        message: expect.stringContaining('Quota exceeded'),
      });
      expectRefused(lastRefusal(legacy.seen), 'per-principal', 2);
      // The answer is a response on the session: no new exchange, never counted.
      release();
      expect((await first).content).toEqual([{ type: 'text', text: 'asked and answered' }]);
      await startedExactly(eve.id, 2);
    } finally {
      await legacy.client.close();
    }
  });
});

describe('rules of QUOTAS_FILE', () => {
  it('refuse a group of tools by its own, lower, quota, while other tools call on', async () => {
    const fay = await person('fay');
    const modern = await modernClient(stack.service.url, fay.authorization);
    try {
      const before = await refusals('writes');
      expect((await modern.call('write_record')).isError).toBeFalsy();
      await expect(modern.call('write_record')).rejects.toMatchObject({ status: 429 });
      expectRefused(lastRefusal(modern.seen), 'writes', 1);
      expect(await refusals('writes')).toBe(before + 1);
      // Refused by one rule, counted by none: the per-principal quota still has its second call.
      expect((await modern.call('read_record')).isError).toBeFalsy();
      await startedExactly(fay.id, 2);
    } finally {
      await modern.client.close();
    }
  });

  it('count the principals of one tenant together, and another tenant apart', async () => {
    const tid = freshSubject('acme');
    const members = [await person('gil', { tid }), await person('hal', { tid })];
    const call = (authorization: string) =>
      rawCall(
        stack.service.url,
        'tools/call',
        { name: 'read_record', arguments: {} },
        {},
        { headers: { authorization } },
      );
    expect((await call(members[0]!.authorization)).status).toBe(200);
    expect((await call(members[0]!.authorization)).status).toBe(200);
    expect((await call(members[1]!.authorization)).status).toBe(200);
    const refused = await call(members[1]!.authorization);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ data: { quota: 'team', window: 'minute', limit: 3 } });
    const outsider = await person('ida', { tid: freshSubject('globex') });
    expect((await call(outsider.authorization)).status).toBe(200);
  });
});
