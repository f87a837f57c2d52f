/**
 * A question addressed to the caller themself (`answerer.caller()`), answered on another device,
 * end to end with real tokens, a real Temporal and Postgres and the official 2.x client at
 * 2026-07-28: a client that takes URL-mode elicitations is sent one pointing at the question's
 * page (no `elicitationId`: 2026-07-28 correlates through requestState), replies `accept`, and
 * waits; the same person answers at the answer page, signed in at the issuer of their token, and
 * only there: neither their own token at the answer API (software acting for them) nor anyone
 * else can answer it. A `decline` from the client is the caller's answer. A client without URL
 * mode waits as for anyone else's question, and the caller answers the same way. A 1.x client in a 2025-11-25
 * session is sent a real `elicitation/create` in URL mode with the question's id as its
 * `elicitationId`, and `notifications/elicitation/complete` once the question is answered.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';
import type { OAuthStack } from '../support/oauth-stack';
import { createdTaskId, taskClient } from '../support/task-client';
import { until } from '../support/until';
import { startAnsweringStack, type AnsweringStack } from './answering-stack';
import { answerOnPage, questionInInbox, questionPage, signedInAt } from './page-answerer';

const SIGNATURE = {
  type: 'object',
  properties: { initials: { type: 'string', maxLength: 4 } },
  required: ['initials'] as string[],
} as const;

const signContract = (name: string, taskSupport?: 'optional') =>
  defineTool({
    tool: { name, inputSchema: { type: 'object', properties: { contract: { type: 'string' } } } },
    ...(taskSupport ? { taskSupport } : {}),
    run(args, ctx) {
      const signature = inputResponse(ctx.inputResponses, 'signature');
      if (signature.kind === 'elicit') {
        const by = ctx.answeredBy?.signature?.map((a) => `${a.principal.subject} via ${a.via}`).join(', ');
        const content = JSON.stringify(signature.content ?? {});
        return {
          content: [{ type: 'text', text: `${signature.action} ${String(args.contract)} by ${by}: ${content}` }],
        };
      }
      return inputRequired({
        inputRequests: {
          signature: elicitFrom(
            { anyOf: [answerer.caller()] },
            { message: `Sign contract ${String(args.contract)}`, requestedSchema: SIGNATURE },
          ),
        },
      });
    },
  });
const handlers: HandlerSet = {
  name: 'contracts',
  tools: [signContract('sign_contract'), signContract('sign_contract_task', 'optional')],
};
let answering: AnsweringStack;
let stack: OAuthStack;
let origin = '';
beforeAll(async () => {
  answering = await startAnsweringStack(handlers, { QUESTION_HOLD_MS: '4000' });
  ({ stack, origin } = answering);
}, 120_000);
afterAll(async () => {
  await answering?.close();
});

interface UrlParams {
  mode?: string;
  message: string;
  url?: string;
  elicitationId?: string;
}

/** Pat's desk app, a 2.x client at 2026-07-28, replying `reply` to every elicitation (and recording it). */
async function desk(takesUrl: boolean, reply: 'accept' | 'decline' = 'accept') {
  const seen: UrlParams[] = [];
  const client = new Client(
    { name: 'desk', version: '1.0.0' },
    {
      capabilities: { elicitation: takesUrl ? { form: {}, url: {} } : { form: {} } },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    seen.push(request.params as UrlParams);
    return { action: reply } as never;
  });
  const authorization = await stack.personBearer('pat', 'pat-desk');
  await client.connect(
    new StreamableHTTPClientTransport(new URL(stack.service.url), { requestInit: { headers: { authorization } } }),
  );
  return { client, seen };
}

const questionsUrl = () => `${origin}/answers/api/questions`;

/** The answer API with `authorization`. */
function answerApi(authorization: string) {
  const headers = { authorization, 'content-type': 'application/json' };
  return {
    list: async () =>
      (await (await fetch(questionsUrl(), { headers })).json()) as {
        questions: Array<{ id: string; message: string; shownDigest: string; url: string }>;
      },
    read: (id: string) => fetch(`${questionsUrl()}/${encodeURIComponent(id)}`, { headers }),
    answer: (id: string, body: Record<string, unknown>) =>
      fetch(`${questionsUrl()}/${encodeURIComponent(id)}`, { method: 'POST', headers, body: JSON.stringify(body) }),
  };
}

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;
const call = (client: Client, contract: string) =>
  client.callTool({ name: 'sign_contract', arguments: { contract } }, { timeout: 60_000 });

describe('a question addressed to the caller', () => {
  it('is sent to a client that takes URL mode as a link to its page, and answered there by the same person through another app', async () => {
    const { client, seen } = await desk(true);
    const result = call(client, 'C-1');
    const sent = await until('the URL elicitation', async () => seen[0]);
    expect(sent).toMatchObject({ mode: 'url', message: 'Sign contract C-1' });
    expect(sent.elicitationId).toBeUndefined();
    expect(sent.url!.startsWith(`${origin}/answers/q/`)).toBe(true);
    const id = decodeURIComponent(sent.url!.slice(`${origin}/answers/q/`.length));

    // Someone else neither sees nor answers it; nor does the caller's form reply, which is consent only.
    const carol = answerApi(await stack.serviceBearer('carol'));
    expect((await carol.list()).questions.some((q) => q.id === id)).toBe(false);
    expect((await carol.read(id)).status).toBe(403);
    expect((await carol.answer(id, { action: 'accept', content: { initials: 'CX' }, shownDigest: 'x' })).status).toBe(
      403,
    );
    // Pat's own token on their phone is software acting for Pat: it answers nothing.
    const agent = answerApi(await stack.personBearer('pat', 'pat-phone', 'mcp', {}, stack.answersResource));
    const refused = await agent.answer(id, { action: 'accept', content: { initials: 'PX' }, shownDigest: 'x' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('client-token');
    // Nor does the token its agent holds for /mcp, which a decline on its own channel would speak
    // for: at the answer API it is refused, and learns nothing of the question (no schema check, no echo).
    const mcpAgent = answerApi(await stack.personBearer('pat', 'pat-desk'));
    for (const attempt of [
      { action: 'decline', shownDigest: 'x' },
      { action: 'accept', content: { initials: 'TOO-LONG' }, shownDigest: 'x' },
    ]) {
      const reply = await mcpAgent.answer(id, attempt);
      expect(reply.status).toBe(403);
      const body = (await reply.json()) as { error: { code: string }; question?: unknown };
      expect(body.error.code).toBe('client-token');
      expect(body).not.toHaveProperty('question');
    }
    const { rows } = await stack.service.pool.query<{ refusal: string }>(
      `SELECT refusal FROM question_answers WHERE question_id = $1 AND NOT taken ORDER BY at`,
      [id],
    );
    expect(rows.filter((row) => row.refusal === 'client-token')).toHaveLength(3);

    // Pat, on their phone's browser: signed in at the page, the same person.
    const phone = await signedInAt(origin, 'pat');
    expect(await (await questionPage(phone, origin, id)).text()).toContain('Sign contract C-1');
    const answered = await answerOnPage(phone, origin, id, { action: 'accept', 'content.initials': 'PS' });
    expect(answered.status).toBe(303);
    expect(textOf(await result)).toBe('accept C-1 by pat via page: {"initials":"PS"}');
    expect(seen).toHaveLength(1);
    await client.close();
  }, 90_000);

  it("takes the client's decline of the link as the caller's answer", async () => {
    const { client, seen } = await desk(true, 'decline');
    expect(textOf(await call(client, 'C-2'))).toBe('decline C-2 by pat via client: {}');
    expect(seen[0]).toMatchObject({ mode: 'url' });
    await client.close();
  }, 90_000);

  it('waits for a client without URL mode as for anyone else, and the caller answers from elsewhere', async () => {
    const { client, seen } = await desk(false);
    const result = call(client, 'C-3');
    const phone = await signedInAt(origin, 'pat');
    const id = await questionInInbox(phone, origin, 'Sign contract C-3');
    // Held past one QUESTION_HOLD_MS, so the client has come back at least once.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const answered = await answerOnPage(phone, origin, id, { action: 'accept', 'content.initials': 'P3' });
    expect(answered.status).toBe(303);
    expect(textOf(await result)).toBe('accept C-3 by pat via page: {"initials":"P3"}');
    expect(seen).toHaveLength(0);
    await client.close();
  }, 90_000);

  it('is sent to a 1.x client in a 2025-11-25 session as elicitation/create in URL mode, then completed', async () => {
    const client = new LegacyClient(
      { name: 'desk', version: '1.0.0' },
      { capabilities: { elicitation: { form: {}, url: {} } } },
    );
    const sent: UrlParams[] = [];
    const completed: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      sent.push(request.params as UrlParams);
      return { action: 'accept' };
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, async (notification) => {
      completed.push(notification.params.elicitationId);
    });
    const authorization = await stack.personBearer('pat', 'pat-desk');
    await client.connect(
      new LegacyTransport(new URL(stack.service.url), { requestInit: { headers: { authorization } } }),
    );
    const result = client.callTool({ name: 'sign_contract', arguments: { contract: 'L-1' } }, CallToolResultSchema, {
      timeout: 60_000,
    });
    const params = await until('the URL elicitation', async () => sent[0]);
    expect(params).toMatchObject({ mode: 'url', message: 'Sign contract L-1' });
    const id = decodeURIComponent(params.url!.slice(`${origin}/answers/q/`.length));
    expect(params.elicitationId).toBe(id);

    const phone = await signedInAt(origin, 'pat');
    const answered = await answerOnPage(phone, origin, id, { action: 'accept', 'content.initials': 'L1' });
    expect(answered.status).toBe(303);
    expect(textOf(await result)).toBe('accept L-1 by pat via page: {"initials":"L1"}');
    expect(completed).toEqual([id]);
    await client.close();
  }, 90_000);

  it("takes a 1.x client's decline of the link as the caller's answer", async () => {
    const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    const authorization = await stack.personBearer('pat', 'pat-desk');
    await client.connect(
      new LegacyTransport(new URL(stack.service.url), { requestInit: { headers: { authorization } } }),
    );
    const result = await client.callTool(
      { name: 'sign_contract', arguments: { contract: 'L-2' } },
      CallToolResultSchema,
      { timeout: 60_000 },
    );
    expect(textOf(result)).toBe('decline L-2 by pat via client: {}');
    await client.close();
  }, 90_000);

  it("keeps a task working with a status message that names the question's page, until the caller answers there", async () => {
    const desk = taskClient(() => stack.service.url, { authorization: await stack.personBearer('pat', 'pat-desk') });
    const taskId = createdTaskId(await desk.call('sign_contract_task', { contract: 'T-1' }));
    const working = await desk.until(taskId, (task) => task.status === 'working' && task.statusMessage !== undefined);
    const page = /you, at (\S+) \(until /.exec(String(working.statusMessage))?.[1];
    expect(page?.startsWith(`${origin}/answers/q/`)).toBe(true);
    const id = decodeURIComponent(page!.slice(`${origin}/answers/q/`.length));
    const phone = await signedInAt(origin, 'pat');
    expect((await answerOnPage(phone, origin, id, { action: 'accept', 'content.initials': 'T1' })).status).toBe(303);
    const done = await desk.until(taskId, (task) => task.status === 'completed');
    expect(done.result).toMatchObject({
      content: [{ type: 'text', text: 'accept T-1 by pat via page: {"initials":"T1"}' }],
    });
  }, 90_000);
});
