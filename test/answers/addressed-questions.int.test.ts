/**
 * Questions addressed to someone other than the caller, end to end with real tokens from a real
 * authorization server, a real Temporal and Postgres, and the official clients: the caller's
 * client waits as its era does (a held 2026-07-28 leg, a task that is `working` with who it
 * waits for, a 1.x session's stream); an approving service answers through the answer API with a
 * token of its own for the answer API's resource; the caller gets the result, and the handler
 * knows who answered. Everyone outside the addressed set, the caller where excluded, a stale
 * digest, a second answer and a late one are refused, change nothing and are in the audit; so is
 * every attempt by software holding a token for someone (an MCP client's token, a person's
 * delegated token), and by a service whose client id is a person's subject. A person answers at
 * the page, signed in at the issuer of the tokens.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { answerer, type HandlerSet } from '@durable-mcp/handlers';
import { decodeJwt } from 'jose';
import type { ClientName, OAuthStack } from '../support/oauth-stack';
import { createdTaskId, taskClient } from '../support/task-client';
import { until } from '../support/until';
import { admin, TEST_ADMIN_TOKEN } from '../support/admin-client';
import { ANSWERED_BY } from '../../lib/exchange/search-attributes';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { startAnsweringStack, type AnsweringStack } from './answering-stack';
import { answerOnPage, questionInInbox, signedInAt } from './page-answerer';
import { refundTool } from './refund-tool';

let issuer = '';
const refund = (name: string, waitMs?: number, taskSupport?: 'optional', onExpiry?: 'handler') =>
  refundTool(
    name,
    () => ({
      anyOf: [answerer.scope('refunds:approve'), answerer.service('carol')],
      excludeCaller: true,
      ...(waitMs ? { waitMs } : {}),
      ...(onExpiry ? { onExpiry } : {}),
    }),
    taskSupport ? { taskSupport } : {},
  );

const handlers: HandlerSet = {
  name: 'refunds',
  tools: [
    refund('refund'),
    refund('refund_quick', 1_500),
    refund('refund_quick_decided', 1_500, undefined, 'handler'),
    refund('refund_task', undefined, 'optional'),
    refundTool('refund_finance', () => ({ anyOf: [answerer.group('finance')], excludeCaller: true })),
    // For Pam herself, a person: her page sign-in answers it, no token of hers does.
    refundTool('refund_pam', () => ({ anyOf: [answerer.principal(issuer, 'pam')] })),
    // For the person carol, not the service whose client id is carol.
    refundTool('refund_person_carol', () => ({ anyOf: [answerer.principal(issuer, 'carol')] })),
  ],
};

let answering: AnsweringStack;
let stack: OAuthStack;
let origin = '';
beforeAll(async () => {
  answering = await startAnsweringStack(handlers, {
    QUESTION_HOLD_MS: '4000',
    QUESTION_PROGRESS_EVERY_MS: '1000',
    ADMIN_TOKEN: TEST_ADMIN_TOKEN,
  });
  ({ stack, issuer, origin } = answering);
}, 120_000);
afterAll(async () => {
  await answering?.close();
});

/** The key a service answers by: its client, apart from any person's subject. */
const serviceId = (name: string) => `${issuer}|client:${name}`;

const answersUrl = () => stack.service.url.replace(/\/mcp$/, '/answers/api/questions');

/** A question as the answer API lists it (the fields these tests read). */
interface ListedQuestion {
  id: string;
  exchangeId: string;
  message: string;
  target: string;
  status: string;
  shownDigest: string;
  caller: { id: string };
  arguments: Record<string, unknown>;
}
/** What the answer API replies to an answer. */
interface AnswerReplyBody {
  taken?: boolean;
  decided?: boolean;
  error?: { code: string; message: string; problems?: unknown[] };
}

/** The answer API as the service `name`, with its own token for the answer API (dana's holds refunds:approve). */
async function answerApi(name: ClientName) {
  return answerApiWith(await stack.serviceBearer(name, name === 'dana' ? 'refunds:approve' : undefined));
}

/** The answer API with `authorization`. */
function answerApiWith(authorization: string) {
  const headers = { authorization, 'content-type': 'application/json' };
  return {
    list: async () => (await (await fetch(answersUrl(), { headers })).json()) as { questions: ListedQuestion[] },
    read: async (id: string) => fetch(`${answersUrl()}/${id}`, { headers }),
    answer: async (id: string, body: Record<string, unknown>) => {
      const res = await fetch(`${answersUrl()}/${id}`, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as AnswerReplyBody };
    },
  };
}

/** The question waiting on `order`, as dana's inbox lists it. */
async function questionFor(order: string) {
  const dana = await answerApi('dana');
  return until(`the question on ${order}`, async () =>
    (await dana.list()).questions.find((q) => q.message === `Refund ${order}?`),
  );
}

async function modernClient(name: ClientName) {
  const client = new Client(
    { name: 'desk', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const authorization = await stack.bearer(name);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(stack.service.url), { requestInit: { headers: { authorization } } }),
  );
  return client;
}

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe('a question addressed to an approver', () => {
  it('is answered through the answer API while a 2026-07-28 client without tasks waits, and the client gets the result', async () => {
    const alice = await modernClient('alice');
    const progress: string[] = [];
    const call = alice.callTool(
      { name: 'refund', arguments: { order: 'A-1' } },
      { onprogress: (p) => progress.push(String(p.message)), resetTimeoutOnProgress: true, timeout: 60_000 },
    );
    const question = await questionFor('A-1');
    expect(question).toMatchObject({ target: 'refund', arguments: { order: 'A-1' }, status: 'waiting' });
    expect(question.caller.id).toBe(stack.principal('alice'));
    // Held legs have come back at least once (QUESTION_HOLD_MS is 4 s here) and been told who they wait for.
    await new Promise((resolve) => setTimeout(resolve, 5_000));

    // Alice's service is not addressed: it does not see the question.
    expect((await (await answerApi('alice')).read(question.id)).status).toBe(403);
    const dana = await answerApi('dana');
    const invalid = await dana.answer(question.id, {
      action: 'accept',
      content: { note: 'x'.repeat(41) },
      shownDigest: question.shownDigest,
    });
    expect(invalid).toMatchObject({ status: 422, body: { error: { problems: [{ path: 'content.note' }] } } });
    const stale = await dana.answer(question.id, { action: 'accept', content: {}, shownDigest: 'not-what-was-shown' });
    expect(stale).toMatchObject({ status: 409, body: { error: { code: 'stale' } } });

    const taken = await dana.answer(question.id, {
      action: 'accept',
      content: { note: 'ok' },
      shownDigest: question.shownDigest,
    });
    expect(taken).toMatchObject({ status: 200, body: { taken: true, decided: true } });
    const result = await call;
    expect(textOf(result)).toBe('accept for A-1 by dana via api (ok)');
    expect(progress.some((m) => m.includes('Waiting for an answer from a holder of refunds:approve'))).toBe(true);

    // Carol is addressed by name, but the question is decided: a clear refusal, nothing changes.
    const late = await (
      await answerApi('carol')
    ).answer(question.id, { action: 'decline', shownDigest: question.shownDigest });
    expect(late).toMatchObject({ status: 409, body: { error: { code: 'closed' } } });
    expect(late.body.error?.message).toMatch(/already answered by dana/);

    const { rows } = await stack.service.pool.query<{
      answerer_id: string;
      taken: boolean;
      refusal: string | null;
      via: string;
    }>(
      `SELECT a.answerer_id, a.taken, a.refusal, a.via FROM question_answers a WHERE a.question_id = $1 ORDER BY a.at`,
      [question.id],
    );
    expect(rows).toEqual([
      { answerer_id: serviceId('dana'), taken: false, refusal: 'stale', via: 'api' },
      { answerer_id: serviceId('dana'), taken: true, refusal: null, via: 'api' },
      { answerer_id: serviceId('carol'), taken: false, refusal: 'closed', via: 'api' },
    ]);
    const status = await stack.service.pool.query(`SELECT status FROM questions WHERE id = $1`, [question.id]);
    expect(status.rows[0]).toEqual({ status: 'answered' });

    // The admin API and Temporal name the approver, and the admin API lists the refusals.
    const detail = await admin(stack.service.url, `/exchanges/${question.exchangeId}`);
    expect(detail.body.questions).toEqual([
      expect.objectContaining({
        key: 'approval',
        status: 'answered',
        answers: [expect.objectContaining({ by: serviceId('dana'), via: 'api', action: 'accept' })],
        attempts: [
          expect.objectContaining({ taken: false, refusal: 'stale' }),
          expect.objectContaining({ taken: true }),
          expect.objectContaining({ by: serviceId('carol'), taken: false, refusal: 'closed' }),
        ],
      }),
    ]);
    const described = await stack.service.temporal.workflow.getHandle(workflowIdFor(question.exchangeId)).describe();
    expect(described.typedSearchAttributes.get(ANSWERED_BY)).toEqual([serviceId('dana')]);
    await alice.close();
  }, 60_000);

  it('refuses the caller where excluded, even when its scope admits it', async () => {
    const carol = await modernClient('carol');
    const call = carol.callTool({ name: 'refund', arguments: { order: 'C-1' } }, { timeout: 60_000 });
    const question = await questionFor('C-1');
    const own = await (
      await answerApi('carol')
    ).answer(question.id, { action: 'accept', content: {}, shownDigest: question.shownDigest });
    expect(own).toMatchObject({ status: 403, body: { error: { code: 'caller-excluded' } } });
    const dana = await answerApi('dana');
    expect(await dana.answer(question.id, { action: 'decline', shownDigest: question.shownDigest })).toMatchObject({
      status: 200,
    });
    expect(textOf(await call)).toBe('decline for C-1 by dana via api');
    await carol.close();
  }, 60_000);

  it('expires at its own deadline: a later answer is refused, and the caller gets the expiry', async () => {
    const alice = await modernClient('alice');
    const call = alice.callTool({ name: 'refund_quick', arguments: { order: 'Q-1' } }, { timeout: 60_000 }).then(
      () => undefined,
      (error: { code?: number; message?: string; data?: unknown }) => error,
    );
    const question = await questionFor('Q-1');
    // The expiry names the question's own wait (1.5 s), not the round timeout it was given instead of.
    const expired = await call;
    expect(expired?.code).toBe(-32001);
    expect(expired?.message).toContain('the answers to round 1 did not arrive within 1500 ms');
    expect(expired?.data).toMatchObject({ round: 1, roundTimeoutMs: 1500 });
    const dana = await answerApi('dana');
    const late = await dana.answer(question.id, { action: 'accept', content: {}, shownDigest: question.shownDigest });
    expect([410]).toContain(late.status);
    const status = await until('the question expired', async () => {
      const { rows } = await stack.service.pool.query<{ status: string }>(
        `SELECT status FROM questions WHERE id = $1`,
        [question.id],
      );
      return rows[0]?.status === 'expired' ? rows[0].status : undefined;
    });
    expect(status).toBe('expired');
    await alice.close();
  }, 60_000);

  it("expires at its own deadline in a 2025-11-25 session too, naming the question's own wait", async () => {
    const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: {} });
    const authorization = await stack.bearer('alice');
    await client.connect(
      new LegacyTransport(new URL(stack.service.url), { requestInit: { headers: { authorization } } }),
    );
    const expired = await client
      .callTool({ name: 'refund_quick', arguments: { order: 'Q-2' } }, CallToolResultSchema, { timeout: 60_000 })
      .then(
        () => undefined,
        (error: { code?: number; message?: string; data?: unknown }) => error,
      );
    expect(expired?.code).toBe(-32001);
    expect(expired?.message).toContain('the answers to round 1 did not arrive within 1500 ms');
    expect(expired?.data).toMatchObject({ round: 1, roundTimeoutMs: 1500 });
    await client.close();
  }, 60_000);

  it.each(['2026-07-28', '2025-11-25'])(
    'leaves its expiry to the handler when it says so: a %s client gets its tool error, the question is expired',
    async (era) => {
      const order = `QE-${era}`;
      const authorization = await stack.bearer('alice');
      const transport = { requestInit: { headers: { authorization } } };
      let result: unknown;
      if (era === '2026-07-28') {
        const client = await modernClient('alice');
        result = await client.callTool({ name: 'refund_quick_decided', arguments: { order } }, { timeout: 60_000 });
        await client.close();
      } else {
        const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: {} });
        await client.connect(new LegacyTransport(new URL(stack.service.url), transport));
        result = await client.callTool({ name: 'refund_quick_decided', arguments: { order } }, CallToolResultSchema, {
          timeout: 60_000,
        });
        await client.close();
      }
      expect(result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: `nobody approved ${order} in time` }],
      });
      const { rows } = await stack.service.pool.query<{ status: string }>(
        `SELECT status FROM questions WHERE message = $1`,
        [`Refund ${order}?`],
      );
      expect(rows.map((row) => row.status)).toContain('expired');
      expect(rows.map((row) => row.status)).not.toContain('waiting');
    },
    60_000,
  );

  it('keeps a task working, with who it waits for, until the approver answers', async () => {
    const alice = taskClient(() => stack.service.url, { authorization: await stack.bearer('alice') });
    const taskId = createdTaskId(await alice.call('refund_task', { order: 'T-1' }));
    const working = await alice.until(taskId, (task) => task.status === 'working' && task.statusMessage !== undefined);
    expect(working.statusMessage).toMatch(
      /^Waiting for an answer from a holder of refunds:approve or the service carol \(until /,
    );
    // The caller's tasks/update of the question's key takes nothing.
    await alice.update(taskId, { approval: { action: 'accept', content: {} } });
    const question = await questionFor('T-1');
    expect(question.status).toBe('waiting');
    await (
      await answerApi('carol')
    ).answer(question.id, { action: 'accept', content: { note: 'fine' }, shownDigest: question.shownDigest });
    const done = await alice.until(taskId, (task) => task.status === 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'accept for T-1 by carol via api (fine)' }] });
  }, 60_000);

  it('is answered while a 1.x client waits in a 2025-11-25 session, kept waiting past its timeout by reminders', async () => {
    const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: {} });
    const authorization = await stack.bearer('alice');
    await client.connect(
      new LegacyTransport(new URL(stack.service.url), { requestInit: { headers: { authorization } } }),
    );
    const progress: string[] = [];
    // A 3 s timeout, reset by progress, stands for a host's 60 s: the question is answered after
    // 5 s, and the reminders (every QUESTION_PROGRESS_EVERY_MS, 1 s here) keep the call alive.
    const call = client.callTool({ name: 'refund', arguments: { order: 'L-1' } }, CallToolResultSchema, {
      onprogress: (p) => progress.push(String(p.message)),
      timeout: 3_000,
      resetTimeoutOnProgress: true,
    });
    const question = await questionFor('L-1');
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await (
      await answerApi('dana')
    ).answer(question.id, { action: 'accept', content: {}, shownDigest: question.shownDigest });
    expect(textOf(await call)).toBe('accept for L-1 by dana via api ()');
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.every((m) => m.startsWith('Waiting for an answer from a holder of refunds:approve'))).toBe(true);
    await client.close();
  }, 60_000);

  it("admits a group's member service at the answer API by the groups claim of its own token", async () => {
    const alice = await modernClient('alice');
    const call = alice.callTool({ name: 'refund_finance', arguments: { order: 'G-1' } }, { timeout: 60_000 });
    const bot = (name: string, groups: string[]) =>
      stack.personBearer(name, name, '', { groups }, stack.answersResource);
    const finance = answerApiWith(await bot('finance-bot', ['finance']));
    const outsider = answerApiWith(await bot('sales-bot', ['sales']));
    const question = await until('the question in the finance inbox', async () =>
      (await finance.list()).questions.find((q) => q.message === 'Refund G-1?'),
    );
    expect((await outsider.list()).questions.some((q) => q.id === question.id)).toBe(false);
    expect((await outsider.read(question.id)).status).toBe(403);
    // A person of the group, through software holding their token, answers nothing.
    const gina = answerApiWith(
      await stack.personBearer('gina', 'finance-app', '', { groups: ['finance'] }, stack.answersResource),
    );
    expect(
      await gina.answer(question.id, { action: 'accept', content: {}, shownDigest: question.shownDigest }),
    ).toMatchObject({
      status: 403,
      body: { error: { code: 'client-token' } },
    });
    const taken = await finance.answer(question.id, {
      action: 'accept',
      content: {},
      shownDigest: question.shownDigest,
    });
    expect(taken.status).toBe(200);
    expect(textOf(await call)).toBe('accept for G-1 by finance-bot via api ()');
    await alice.close();
  }, 60_000);
});

describe('people and agents are different principals', () => {
  /** Every attempt on a question, in order: who, taken, and the refusal. */
  const attemptsOn = async (id: string) =>
    (
      await stack.service.pool.query<{ answerer_id: string; taken: boolean; refusal: string | null; via: string }>(
        `SELECT answerer_id, taken, refusal, via FROM question_answers WHERE question_id = $1 ORDER BY at`,
        [id],
      )
    ).rows;

  it("refuses, records and changes nothing for every token that speaks for Pam, and takes Pam's own answer at the page", async () => {
    // Pam's agent calls with her token; the question is for Pam herself.
    const client = new Client(
      { name: 'agent', version: '1.0.0' },
      { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    const pamsToken = await stack.personBearer('pam', 'pam-agent');
    await client.connect(
      new StreamableHTTPClientTransport(new URL(stack.service.url), {
        requestInit: { headers: { authorization: pamsToken } },
      }),
    );
    const call = client.callTool(
      { name: 'refund_pam', arguments: { order: 'P-1' } },
      { timeout: 60_000, resetTimeoutOnProgress: true, onprogress: () => undefined },
    );
    call.catch(() => undefined);
    const pam = await signedInAt(origin, 'pam');
    const id = await questionInInbox(pam, origin, 'Refund P-1?');
    const attempt = { action: 'accept', content: { note: 'approved by my agent' }, shownDigest: 'guessed' };

    // The token the agent holds for /mcp: it reads nothing and answers nothing.
    const agent = answerApiWith(pamsToken);
    const listed = await fetch(answersUrl(), { headers: { authorization: pamsToken } });
    expect(listed.status).toBe(403);
    expect(((await listed.json()) as AnswerReplyBody).error?.code).toBe('client-token');
    expect((await agent.read(id)).status).toBe(403);
    expect(await agent.answer(id, attempt)).toMatchObject({ status: 403, body: { error: { code: 'client-token' } } });
    // A token of Pam's issued for the answer API itself (delegated to an app): the same.
    const delegated = answerApiWith(await stack.personBearer('pam', 'pam-mail-app', '', {}, stack.answersResource));
    expect(await delegated.answer(id, attempt)).toMatchObject({
      status: 403,
      body: { error: { code: 'client-token' } },
    });
    // An addressee's MCP client (dana's, holding refunds:approve for /mcp) is no service either.
    const danasMcp = answerApiWith(await stack.bearer('dana', { scope: 'mcp refunds:approve' }));
    expect(await danasMcp.answer(id, attempt)).toMatchObject({
      status: 403,
      body: { error: { code: 'client-token' } },
    });
    // A bot the question is not addressed to.
    expect(await (await answerApi('dana')).answer(id, attempt)).toMatchObject({
      status: 403,
      body: { error: { code: 'not-addressed' } },
    });
    expect((await (await answerApi('dana')).answer(id, attempt)).body).not.toHaveProperty('question');

    // Nothing changed: the question waits, every attempt is in the audit, refused.
    const { rows: waiting } = await stack.service.pool.query(`SELECT status FROM questions WHERE id = $1`, [id]);
    expect(waiting[0]).toEqual({ status: 'waiting' });
    const pamId = `${issuer}|pam`;
    expect(await attemptsOn(id)).toEqual([
      { answerer_id: pamId, taken: false, refusal: 'client-token', via: 'api' },
      { answerer_id: pamId, taken: false, refusal: 'client-token', via: 'api' },
      { answerer_id: serviceId('dana'), taken: false, refusal: 'client-token', via: 'api' },
      { answerer_id: serviceId('dana'), taken: false, refusal: 'not-addressed', via: 'api' },
      { answerer_id: serviceId('dana'), taken: false, refusal: 'not-addressed', via: 'api' },
    ]);

    // Pam, signed in and present at the page, answers.
    const answered = await answerOnPage(pam, origin, id, { action: 'accept', 'content.note': 'mine' });
    expect(answered.status).toBe(303);
    expect(textOf(await call)).toBe('accept for P-1 by pam via page (mine)');
    expect((await attemptsOn(id)).at(-1)).toEqual({ answerer_id: pamId, taken: true, refusal: null, via: 'page' });
    // Every one of those decisions, refused or taken, is a signed entry of the evidence log, in order.
    const { rows: entries } = await stack.service.pool.query<{ jws: string }>(
      `SELECT e.jws FROM evidence_entries e JOIN question_answers a ON a.id = e.answer_id
        WHERE a.question_id = $1 ORDER BY e.seq`,
      [id],
    );
    expect(
      entries.map((entry) => (decodeJwt(entry.jws) as { decision: { outcome: string; refusal?: string } }).decision),
    ).toEqual([
      ...['client-token', 'client-token', 'client-token', 'not-addressed', 'not-addressed'].map((refusal) =>
        expect.objectContaining({ outcome: 'refused', refusal }),
      ),
      expect.objectContaining({ outcome: 'taken', action: 'accept' }),
    ]);
    await client.close();
  }, 90_000);

  it('never takes a service for the person whose subject is its client id', async () => {
    const alice = await modernClient('alice');
    const call = alice.callTool({ name: 'refund_person_carol', arguments: { order: 'K-1' } }, { timeout: 60_000 });
    call.catch(() => undefined);
    const carolPerson = await signedInAt(origin, 'carol');
    const id = await questionInInbox(carolPerson, origin, 'Refund K-1?');
    // The service carol (client credentials: its sub is its client id, carol) is not the person carol.
    const carolService = await answerApi('carol');
    expect((await carolService.list()).questions.some((q) => q.id === id)).toBe(false);
    expect(await carolService.answer(id, { action: 'accept', content: {}, shownDigest: 'x' })).toMatchObject({
      status: 403,
      body: { error: { code: 'not-addressed' } },
    });
    expect(await attemptsOn(id)).toEqual([
      { answerer_id: serviceId('carol'), taken: false, refusal: 'not-addressed', via: 'api' },
    ]);
    expect((await answerOnPage(carolPerson, origin, id, { action: 'decline' })).status).toBe(303);
    expect(textOf(await call)).toBe('decline for K-1 by carol via page');
    await alice.close();
  }, 60_000);
});
