/**
 * The admin API (/admin) against a real service: the real Temporal dev server, the real Postgres,
 * real HTTP. It lists, shows and cancels real exchanges of both eras, pages and filters, refuses
 * a missing or wrong token, and is off when no token is configured.
 */
import { defineTool, inputRequired, type HandlerSet } from '@durable-mcp/handlers';
import { demoHandlers } from '../../built-in-handlers/demo';
import { EXCHANGE_CANCELLED } from '../../lib/protocol/exchange-errors';
import { sessionRef } from '../../lib/log';
import { admin, TEST_ADMIN_TOKEN } from '../support/admin-client';
import { eventually, exchangeOfSession, exchangeStatus } from '../support/exchange-rows';
import { isNotification, isRequest, isResponseTo, LegacySession } from '../support/legacy-client';
import { accept, rawCall } from '../support/raw-mcp';
import { startTestService, useTestService, type TestService } from '../support/test-service';

const UI = 'http://ui.example.test:8233';

// Targets of this file only, so its lists never see another test file's exchanges.
const instant = defineTool({
  tool: { name: 'admin_instant', inputSchema: { type: 'object' } },
  run: () => ({ content: [{ type: 'text', text: 'done' }] }),
});
const askName = defineTool({
  tool: { name: 'admin_ask', inputSchema: { type: 'object' } },
  run: (_args, ctx) => {
    const answer = ctx.inputResponses.name as { content?: { name?: string } } | undefined;
    if (answer) return { content: [{ type: 'text', text: `Hello, ${answer.content?.name}` }] };
    return inputRequired({
      inputRequests: {
        name: inputRequired.elicit({
          message: 'Who is asking?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        }),
      },
    });
  },
});
/** What the show route says of the exchange's workflow, once it no longer says RUNNING (or after 10 s). */
async function workflowStatusOf(service: TestService, id: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const status = (await admin(service.url, `/exchanges/${id}`)).body.workflow.status as string;
    if (status !== 'RUNNING' || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const handlers: HandlerSet = { ...demoHandlers, name: 'admin-test', tools: [...demoHandlers.tools, instant, askName] };
/** The version the service says its handlers have: every exchange it starts records it. */
const HANDLER_VERSION = 'admin-tools@3.1.4';

describe('admin API', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(
      // Its refusal tests send more wrong tokens than ADMIN_TOKEN_MAX_FAILURES lets one address send.
      { ADMIN_TOKEN: TEST_ADMIN_TOKEN, TEMPORAL_UI_URL: `${UI}/`, ADMIN_TOKEN_MAX_FAILURES: '1000' },
      { handlers, handlerVersion: HANDLER_VERSION },
    );
  });
  afterAll(async () => {
    await service?.close();
  });

  describe('the bearer token', () => {
    it.each([
      ['no Authorization header', { token: null }, 'Bearer realm="durable-mcp admin"'],
      [
        'another scheme',
        { authorization: `Basic ${Buffer.from(`x:${TEST_ADMIN_TOKEN}`).toString('base64')}` },
        'Bearer realm="durable-mcp admin"',
      ],
      ['a wrong token', { token: 'not-the-admin-token' }, 'Bearer realm="durable-mcp admin", error="invalid_token"'],
      [
        'the token with one character changed',
        { token: `${TEST_ADMIN_TOKEN.slice(0, -1)}x` },
        'Bearer realm="durable-mcp admin", error="invalid_token"',
      ],
      [
        'a prefix of the token',
        { token: TEST_ADMIN_TOKEN.slice(0, 20) },
        'Bearer realm="durable-mcp admin", error="invalid_token"',
      ],
    ])('refuses %s with 401 and WWW-Authenticate: Bearer', async (_what, options, challenge) => {
      for (const [method, path] of [
        ['GET', '/exchanges'],
        ['GET', '/exchanges/00000000-0000-4000-8000-000000000000'],
        ['POST', '/exchanges/00000000-0000-4000-8000-000000000000/cancel'],
      ] as const) {
        const reply = await admin(service.url, path, { ...options, method });
        expect(reply.status).toBe(401);
        expect(reply.headers.get('www-authenticate')).toBe(challenge);
        expect(reply.body.error.code).toBe('unauthorized');
        expect(JSON.stringify(reply.body)).not.toContain(TEST_ADMIN_TOKEN);
      }
    });

    it('lets the right token through', async () => {
      expect((await admin(service.url, '/exchanges?limit=1')).status).toBe(200);
    });
  });

  describe('one 2026-07-28 exchange, listed, shown and cancelled', () => {
    it('shows the waiting exchange with its ask, then cancels it exactly as a client cancel ends it', async () => {
      const first = await rawCall(service.url, 'tools/call', { name: 'admin_ask', arguments: {} });
      expect(first.body.result?.inputRequests).toHaveProperty('name');
      const requestState = first.body.result!.requestState as string;

      const running = await admin(service.url, '/exchanges?status=running&target=admin_ask&limit=200');
      expect(running.status).toBe(200);
      const listed = running.body.exchanges[0];
      expect(listed).toMatchObject({
        status: 'running',
        era: 'modern',
        method: 'tools/call',
        target: 'admin_ask',
        handlerVersion: HANDLER_VERSION,
        rounds: 1,
        asks: 1,
        lastOutcome: 'ask',
      });
      expect(Date.parse(listed.waitingSince)).toBeLessThanOrEqual(Date.now());
      expect(Date.parse(listed.deadlineAt)).toBeGreaterThan(Date.now());
      expect(listed.temporalUiUrl).toBe(`${UI}/namespaces/default/workflows/${listed.workflowId}`);
      const id = listed.id as string;

      const shown = await admin(service.url, `/exchanges/${id}`);
      expect(shown.status).toBe(200);
      expect(shown.body.exchange).toMatchObject({ id, status: 'running', handlerVersion: HANDLER_VERSION });
      expect(shown.body.workflow).toEqual({
        id: `exchange-${id}`,
        status: 'RUNNING',
        temporalUiUrl: `${UI}/namespaces/default/workflows/exchange-${id}`,
      });
      expect(shown.body.rounds).toEqual([
        expect.objectContaining({
          round: 1,
          kind: 'ask',
          inputRequests: { name: expect.objectContaining({ method: 'elicitation/create' }) },
          deadlineAt: listed.deadlineAt,
        }),
      ]);
      expect(shown.body.rounds[0]).not.toHaveProperty('answers');
      expect(JSON.stringify(shown.body)).not.toContain('sealedHandlerState');

      const cancelled = await admin(service.url, `/exchanges/${id}/cancel`, {
        method: 'POST',
        body: { reason: 'stuck for the test' },
      });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body).toMatchObject({ cancelled: true, exchange: { id, status: 'cancelled' } });
      expect(await exchangeStatus(service.pool, id)).toBe('cancelled');

      // The client's next leg reads the cancellation, as after a client cancel.
      const late = await rawCall(service.url, 'tools/call', {
        name: 'admin_ask',
        arguments: {},
        inputResponses: { name: accept({ name: 'Ada' }) },
        requestState,
      });
      expect(late.body.error).toMatchObject({
        code: EXCHANGE_CANCELLED,
        message: 'Exchange cancelled by an operator: stuck for the test',
        data: { cancelledBy: 'operator' },
      });

      expect(await workflowStatusOf(service, id)).toBe('COMPLETED');
      const after = await admin(service.url, `/exchanges/${id}`);
      expect(after.body.exchange.status).toBe('cancelled');
      expect(after.body.rounds.map((r: { kind: string }) => r.kind)).toEqual(['ask', 'error']);
      expect(after.body.rounds[1].error).toMatchObject({ code: EXCHANGE_CANCELLED });

      // Already ended: 409, and nothing is signalled.
      const again = await admin(service.url, `/exchanges/${id}/cancel`, { method: 'POST' });
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'already_ended' });
      expect(again.body.error.exchange).toMatchObject({ id, status: 'cancelled' });
    });

    it('shows each ask beside the answers it got, with the wait and the final result', async () => {
      const first = await rawCall(service.url, 'tools/call', { name: 'admin_ask', arguments: {} });
      const done = await rawCall(service.url, 'tools/call', {
        name: 'admin_ask',
        arguments: {},
        inputResponses: { name: accept({ name: 'Lin' }) },
        requestState: first.body.result!.requestState,
      });
      expect(done.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Lin' }]);
      const list = await admin(service.url, '/exchanges?status=completed&target=admin_ask&limit=1');
      const shown = await admin(service.url, `/exchanges/${list.body.exchanges[0].id}`);
      const [ask, result] = shown.body.rounds;
      expect(ask).toMatchObject({
        round: 1,
        kind: 'ask',
        answers: { name: { action: 'accept', content: { name: 'Lin' } } },
      });
      expect(ask.waitedMs).toBeGreaterThanOrEqual(0);
      expect(Date.parse(ask.answeredAt)).toBeGreaterThanOrEqual(Date.parse(ask.recordedAt));
      expect(result).toMatchObject({
        round: 2,
        kind: 'complete',
        result: { content: [{ type: 'text', text: 'Hello, Lin' }] },
      });
      expect(result.durationMs).toBeGreaterThanOrEqual(0);
      // The round is recorded a moment before the workflow closes.
      expect(await workflowStatusOf(service, list.body.exchanges[0].id)).toBe('COMPLETED');
    });

    it('answers 404 for an unknown or malformed id, on show and on cancel', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "x'; DROP TABLE exchanges; --"]) {
        const shown = await admin(service.url, `/exchanges/${encodeURIComponent(id)}`);
        expect(shown.status).toBe(404);
        expect(shown.body.error.code).toBe('not_found');
        const cancelled = await admin(service.url, `/exchanges/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
        expect(cancelled.status).toBe(404);
      }
    });

    it('refuses a cancel body it cannot read, naming the field', async () => {
      const first = await rawCall(service.url, 'tools/call', { name: 'admin_ask', arguments: {} });
      expect(first.body.result?.inputRequests).toHaveProperty('name');
      const id = (await admin(service.url, '/exchanges?status=running&target=admin_ask&limit=1')).body.exchanges[0].id;
      for (const [body, parameter] of [
        [{ reason: 42 }, 'reason'],
        [{ reason: 'x'.repeat(257) }, 'reason'],
        [{ why: 'no' }, 'why'],
        [['reason'], 'body'],
      ] as const) {
        const reply = await admin(service.url, `/exchanges/${id}/cancel`, { method: 'POST', body });
        expect(reply.status).toBe(400);
        expect(reply.body.error).toMatchObject({ code: 'invalid_parameter', parameter });
      }
      expect(await exchangeStatus(service.pool, id)).toBe('running');
      expect((await admin(service.url, `/exchanges/${id}/cancel`, { method: 'POST' })).status).toBe(200);
    });
  });

  describe('a legacy exchange', () => {
    it('is found by its session tag and cancelled like a client cancel: one notifications/cancelled, then -32012', async () => {
      const session = await LegacySession.open(service.url, {
        capabilities: { elicitation: {} },
        clientInfo: { name: 'admin-test-client', version: '2.0.0' },
      });
      try {
        const { id: callId, stream } = await session.request('tools/call', { name: 'admin_ask', arguments: {} });
        const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'the elicitation');
        const exchange = await exchangeOfSession(service.pool, session.sessionId);
        const tag = sessionRef(session.sessionId).session;

        for (const session_ of [tag, session.sessionId]) {
          const listed = await admin(service.url, `/exchanges?session=${encodeURIComponent(session_)}`);
          expect(listed.body.exchanges.map((e: { id: string }) => e.id)).toEqual([exchange.id]);
          expect(listed.body.exchanges[0]).toMatchObject({ era: 'legacy', session: tag, status: 'running' });
        }
        const shown = await admin(service.url, `/exchanges/${exchange.id}`);
        expect(shown.body.session).toEqual({
          tag,
          transport: 'streamable-http',
          protocolVersion: session.protocolVersion,
          clientInfo: { name: 'admin-test-client', version: '2.0.0' },
          closed: false,
        });
        expect(JSON.stringify(shown.body)).not.toContain(session.sessionId);

        const cancelled = await admin(service.url, `/exchanges/${exchange.id}/cancel`, { method: 'POST' });
        expect(cancelled.status).toBe(200);
        expect(cancelled.body.exchange.status).toBe('cancelled');
        const withdrawn = await stream.until((m) => isNotification(m, 'notifications/cancelled'), 'the withdrawal');
        expect(withdrawn.message.params).toMatchObject({ requestId: ask.message.id });
        const response = await stream.until((m) => isResponseTo(m, callId), 'the call response');
        expect(response.message.error).toMatchObject({
          code: EXCHANGE_CANCELLED,
          message: 'Exchange cancelled by an operator: cancelled by an operator through the admin API',
        });
        await stream.settle(1_000);
        expect(stream.messages.filter((m) => isNotification(m.message, 'notifications/cancelled'))).toHaveLength(1);
      } finally {
        await session.close();
      }
    });
  });

  describe('lists', () => {
    const created: string[] = [];
    beforeAll(async () => {
      for (let i = 0; i < 5; i += 1) {
        const reply = await rawCall(service.url, 'tools/call', { name: 'admin_instant', arguments: {} });
        expect(reply.body.result?.content).toEqual([{ type: 'text', text: 'done' }]);
      }
      const { rows } = await service.pool.query<{ id: string }>(
        "SELECT id FROM exchanges WHERE target = 'admin_instant' ORDER BY created_at DESC, id DESC",
      );
      created.push(...rows.map((r) => r.id));
      expect(created).toHaveLength(5);
      await eventually(async () => (await exchangeStatusesOf(created)).every((s) => s === 'completed'), true);
    });
    const exchangeStatusesOf = (ids: string[]) => Promise.all(ids.map((id) => exchangeStatus(service.pool, id)));

    it('pages newest first with a cursor, every row once, and says when there is no next page', async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const reply = await admin(
          service.url,
          `/exchanges?target=admin_instant&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(reply.status).toBe(200);
        expect(reply.body.limit).toBe(2);
        expect(reply.body.exchanges.length).toBeLessThanOrEqual(2);
        seen.push(...reply.body.exchanges.map((e: { id: string }) => e.id));
        cursor = reply.body.nextCursor;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(created);
      // A page written after the listing started does not shift the next one.
      const firstPage = await admin(service.url, '/exchanges?target=admin_instant&limit=2');
      await rawCall(service.url, 'tools/call', { name: 'admin_instant', arguments: {} });
      const secondPage = await admin(
        service.url,
        `/exchanges?target=admin_instant&limit=2&cursor=${encodeURIComponent(firstPage.body.nextCursor)}`,
      );
      expect(secondPage.body.exchanges.map((e: { id: string }) => e.id)).toEqual(created.slice(2, 4));
    });

    it("filters by status, method, target, era, the handlers' version and age", async () => {
      const ids = async (query: string) =>
        (await admin(service.url, `/exchanges?${query}&limit=200`)).body.exchanges.map((e: { id: string }) => e.id);
      const newest5 = async (query: string) => (await ids(query)).filter((id: string) => created.includes(id));
      expect(await newest5('target=admin_instant&status=completed')).toEqual(created);
      expect(await newest5('target=admin_instant&status=running,failed')).toEqual([]);
      expect(await newest5('target=admin_instant&method=tools/call&era=modern')).toEqual(created);
      expect(await newest5('target=admin_instant&era=legacy')).toEqual([]);
      expect(await newest5('target=admin_instant&method=prompts/get')).toEqual([]);
      expect(await newest5(`handlerVersion=${encodeURIComponent(HANDLER_VERSION)}`)).toEqual(created);
      expect(await newest5('target=admin_instant&handlerVersion=admin-tools%403.1.3')).toEqual([]);
      expect(await newest5('target=admin_instant&newerThan=3600')).toEqual(created);
      expect(await newest5('target=admin_instant&olderThan=3600')).toEqual([]);
      expect(await newest5('target=admin_instant&olderThan=0')).toEqual(created);
      expect(await ids('target=no_such_target')).toEqual([]);
      expect(await newest5('status=completed')).toEqual(created);
    });

    it.each([
      ['status=runing', 'status'],
      ['status=', 'status'],
      ['method=tools%2Fcal', 'method'],
      ['era=future', 'era'],
      ['target=', 'target'],
      ['session=', 'session'],
      ['handlerVersion=', 'handlerVersion'],
      ['olderThan=-1', 'olderThan'],
      ['olderThan=5m', 'olderThan'],
      ['newerThan=0', 'newerThan'],
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['limit=ten', 'limit'],
      ['limit=1&limit=2', 'limit'],
      ['cursor=bm9wZQ', 'cursor'],
      ['cursor=WyIyMDI2IiwieCJd', 'cursor'],
      ['sort=asc', 'sort'],
    ])('refuses ?%s with 400 naming %s', async (query, parameter) => {
      const reply = await admin(service.url, `/exchanges?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatchObject({ code: 'invalid_parameter', parameter });
      expect(reply.body.error.message).toContain(parameter);
    });
  });
});

describe('guesses at the admin token', () => {
  const WINDOW_MS = 2_000;
  let service: TestService;
  beforeAll(async () => {
    // No TRUST_PROXY: nothing a client writes in X-Forwarded-For is believed.
    service = await startTestService(
      {
        ADMIN_TOKEN: TEST_ADMIN_TOKEN,
        ADMIN_TOKEN_MAX_FAILURES: '3',
        ADMIN_TOKEN_FAILURE_WINDOW_MS: String(WINDOW_MS),
      },
      { handlers },
    );
  });
  afterAll(async () => {
    await service?.close();
  });

  it('locks the address out after ADMIN_TOKEN_MAX_FAILURES wrong tokens, forged X-Forwarded-For or not: 429 with Retry-After', async () => {
    // A request without a token is no guess.
    for (let i = 0; i < 5; i += 1) expect((await admin(service.url, '/exchanges', { token: null })).status).toBe(401);
    expect((await admin(service.url, '/exchanges?limit=1')).status).toBe(200);

    // Each guess claims another client address; the API counts the connection's.
    for (let i = 0; i < 3; i += 1) {
      const guess = await admin(service.url, '/exchanges', {
        token: `guess-${i}-${'x'.repeat(40)}`,
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      expect(guess.status).toBe(401);
    }
    const locked = await admin(service.url, '/exchanges?limit=1');
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('too_many_attempts');
    expect(locked.body).not.toHaveProperty('exchanges');
    const retryAfterS = Number(locked.headers.get('retry-after'));
    expect(retryAfterS).toBeGreaterThanOrEqual(1);
    expect(retryAfterS).toBeLessThanOrEqual(WINDOW_MS / 1000);
    // The budget is the address's on every route that takes the admin token.
    const signIn = await fetch(`${service.url.replace(/\/mcp$/, '/codec')}/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: TEST_ADMIN_TOKEN }).toString(),
    });
    expect(signIn.status).toBe(429);
    expect(signIn.headers.get('set-cookie')).toBeNull();

    // Once the window has passed, the right token is let through again.
    await new Promise((resolve) => setTimeout(resolve, retryAfterS * 1000 + 100));
    expect((await admin(service.url, '/exchanges?limit=1')).status).toBe(200);
  });
});

describe('admin API without ADMIN_TOKEN', () => {
  const service = useTestService();

  it('is off: every /admin route answers 404, with or without a token', async () => {
    for (const token of [null, TEST_ADMIN_TOKEN]) {
      expect((await admin(service.url, '/exchanges', { token })).status).toBe(404);
      expect(
        (await admin(service.url, '/exchanges/00000000-0000-4000-8000-000000000000/cancel', { method: 'POST', token }))
          .status,
      ).toBe(404);
    }
  });
});
