/**
 * Questions addressed to someone else, bounded and told apart by name, with the real stack (a real
 * authorization server's keys, Temporal, Postgres, the official 2.x client): a caller past
 * MAX_WAITING_QUESTIONS_PER_PRINCIPAL gets a JSON-RPC error naming the budget and its value while
 * another caller still asks; an inbox longer than MAX_LISTED_QUESTIONS holds every caller's first
 * question before anyone's second and says how many more wait; the caller's and the answering
 * service's token names (and the caller's verified email) are shown beside their subjects by the
 * answer API, the admin API, `ctx.principal` and `ctx.answeredBy`.
 */
import { randomUUID } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';
import { admin, TEST_ADMIN_TOKEN } from '../support/admin-client';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack';
import { until } from '../support/until';
import { APPROVAL_NOTE } from './refund-tool';

/** The refund bot's client id: this run's own, so no other test's questions reach its inbox. */
const BOT = `refund-bot-${randomUUID()}`;

/** Asks the refund bot to approve; says who called and who answered, by name. */
const refund = defineTool({
  tool: { name: 'refund', inputSchema: { type: 'object', properties: { order: { type: 'string' } } } },
  run(args, ctx) {
    const approval = inputResponse(ctx.inputResponses, 'approval');
    if (approval.kind === 'elicit') {
      const by = ctx.answeredBy?.approval?.map((a) => `${a.principal.subject} (${a.principal.name ?? '-'})`);
      const caller = `${ctx.principal.subject} (${ctx.principal.name ?? '-'}, ${ctx.principal.email ?? '-'})`;
      return { content: [{ type: 'text', text: `${approval.action} for ${caller} by ${by?.join(', ')}` }] };
    }
    return inputRequired({
      inputRequests: {
        approval: elicitFrom(
          { anyOf: [answerer.service(BOT)] },
          { message: `Refund ${String(args.order)}?`, requestedSchema: APPROVAL_NOTE },
        ),
      },
    });
  },
});

const handlers: HandlerSet = { name: 'bounded-refunds', tools: [refund] };

let stack: OAuthStack;
beforeAll(async () => {
  stack = await startOAuthStack(
    { MAX_WAITING_QUESTIONS_PER_PRINCIPAL: '1', MAX_LISTED_QUESTIONS: '1', ADMIN_TOKEN: TEST_ADMIN_TOKEN },
    { handlers },
  );
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const origin = () => stack.service.url.replace(/\/mcp$/, '');

interface Listed {
  id: string;
  exchangeId: string;
  message: string;
  shownDigest: string;
  caller: { id: string; subject: string; issuer?: string; name?: string; email?: string };
}

/** The refund bot at the answer API: a service's own token for the answer API, whose `name` is its display name. */
async function refundBot() {
  const token = await stack.personBearer(BOT, BOT, '', { name: 'Refund Bot' }, stack.answersResource);
  const headers = { authorization: token, 'content-type': 'application/json' };
  return {
    list: async () =>
      (await (await fetch(`${origin()}/answers/api/questions`, { headers })).json()) as {
        questions: Listed[];
        moreWaiting: number;
      },
    answer: async (question: Listed) =>
      fetch(`${origin()}/answers/api/questions/${question.id}`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ action: 'accept', content: { note: 'ok' }, shownDigest: question.shownDigest }),
      }),
  };
}

/** A 2026-07-28 client (`clientId`, desk by default) calling as the person `subject`, whose token carries `claims`. */
async function callerClient(subject: string, claims: Record<string, unknown>, clientId = 'desk') {
  const client = new Client(
    { name: 'desk', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const authorization = await stack.personBearer(subject, clientId, 'mcp', claims);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(stack.service.url), { requestInit: { headers: { authorization } } }),
  );
  return client;
}

const callRefund = (client: Client, order: string) =>
  client
    .callTool(
      { name: 'refund', arguments: { order } },
      { timeout: 60_000, resetTimeoutOnProgress: true, onprogress: () => undefined },
    )
    .then(
      (result) => ({ result: result as { content: Array<{ text: string }> } }),
      (error: { code?: number; message?: string; data?: Record<string, unknown> }) => ({ error }),
    );

async function questionFor(order: string, bot: Awaited<ReturnType<typeof refundBot>>) {
  return until(`the question on ${order}`, async () =>
    (await bot.list()).questions.find((q) => q.message === `Refund ${order}?`),
  );
}

describe('questions, bounded and by name', () => {
  it('refuses a caller past its budget of waiting questions, lists callers in turn, and shows everyone by name', async () => {
    const bot = await refundBot();
    const alice = await callerClient('x3JqZ8mN', {
      name: 'Alice Example',
      email: 'alice@example.com',
      email_verified: true,
    });
    const first = callRefund(alice, 'N-1');
    const question = await questionFor('N-1', bot);
    expect(question.caller).toEqual({
      id: `${stack.as.issuer}|x3JqZ8mN|desk`,
      personId: expect.any(String),
      subject: 'x3JqZ8mN',
      issuer: stack.as.issuer,
      name: 'Alice Example',
      email: 'alice@example.com',
    });

    // Alice has one question waiting, her whole budget: her next addressed ask ends its exchange.
    const second = await callRefund(alice, 'N-2');
    expect(second).toMatchObject({
      error: {
        code: -32000,
        data: { budget: 'MAX_WAITING_QUESTIONS_PER_PRINCIPAL', limit: 1, waiting: 1, asked: 1 },
      },
    });
    expect((second as { error: { message: string } }).error.message).toContain(
      'MAX_WAITING_QUESTIONS_PER_PRINCIPAL (1)',
    );
    expect((await bot.list()).questions.some((q) => q.message === 'Refund N-2?')).toBe(false);
    // Through another client of hers she is the same caller, with the same budget.
    const alicesPhone = await callerClient('x3JqZ8mN', { name: 'Alice Example' }, 'phone');
    expect(await callRefund(alicesPhone, 'N-2b')).toMatchObject({
      error: { code: -32000, data: { budget: 'MAX_WAITING_QUESTIONS_PER_PRINCIPAL', waiting: 1 } },
    });
    await alicesPhone.close();

    // Bob, another caller, still asks; his email is not verified, so it is not kept.
    const bob = await callerClient('b0bQ7', { name: 'Bob Builder', email: 'bob@example.com' });
    const bobs = callRefund(bob, 'N-3');
    const listed = await until('two questions waiting', async () => {
      const inbox = await bot.list();
      return inbox.moreWaiting === 1 ? inbox : undefined;
    });
    // One listed (MAX_LISTED_QUESTIONS), the other counted.
    expect(listed.questions).toHaveLength(1);
    expect(listed.questions[0]!.message).toBe('Refund N-1?');

    expect((await bot.answer(question)).status).toBe(200);
    const answered = await first;
    expect(answered).toEqual({
      result: expect.objectContaining({
        content: [
          {
            type: 'text',
            text: `accept for x3JqZ8mN (Alice Example, alice@example.com) by ${BOT} (Refund Bot)`,
          },
        ],
      }),
    });

    // Now Bob's is the one listed, with his name and without his unverified email.
    const bobsQuestion = await questionFor('N-3', bot);
    expect(bobsQuestion.caller).toMatchObject({ subject: 'b0bQ7', name: 'Bob Builder' });
    expect(bobsQuestion.caller).not.toHaveProperty('email');

    // The admin API shows the caller and the answerer by name beside their keys.
    const detail = await admin(stack.service.url, `/exchanges/${question.exchangeId}`);
    expect(detail.body.exchange).toMatchObject({
      principal: question.caller.id,
      principalName: 'Alice Example',
      principalEmail: 'alice@example.com',
    });
    expect(detail.body.questions[0].attempts).toEqual([
      expect.objectContaining({ name: 'Refund Bot', taken: true, via: 'api' }),
    ]);

    // With her question answered, Alice has room again: hers waits behind Bob's (one listed, one more).
    const third = callRefund(alice, 'N-4');
    await until("Alice's next question waiting", async () => ((await bot.list()).moreWaiting === 1 ? true : undefined));
    expect((await bot.answer(bobsQuestion)).status).toBe(200);
    expect(await bobs).toMatchObject({
      result: { content: [{ text: expect.stringContaining('b0bQ7 (Bob Builder, -)') }] },
    });
    expect((await bot.answer(await questionFor('N-4', bot))).status).toBe(200);
    expect(await third).toMatchObject({
      result: { content: [{ text: expect.stringContaining('accept for x3JqZ8mN') }] },
    });
    await alice.close();
    await bob.close();
  }, 90_000);
});
