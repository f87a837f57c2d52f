/**
 * Every exchange ends with a recorded outcome that the next leg reads, whatever ended it: an
 * operator's cancel or terminate in Temporal, a round deadline passing with no worker, a handler
 * whose result cannot be stored, the round cap. Real Temporal dev server, real Postgres, raw legs
 * of both eras (each leg's exact answer matters here).
 */
import type { WorkflowHandle } from '@temporalio/client';
import { defineTool, inputRequired, type HandlerSet } from '@durable-mcp/handlers';
import { demoHandlers } from '../../built-in-handlers/demo';
import {
  EXCHANGE_CANCELLED,
  EXCHANGE_EXPIRED,
  EXCHANGE_TERMINATED,
  ROUND_CAP_EXCEEDED,
} from '../../lib/protocol/exchange-errors';
import { INTERNAL_ERROR } from '../../lib/protocol/json-rpc-codes';
import { EXCHANGE_STATUS } from '../../lib/exchange/search-attributes';
import { createExchangeStorePg } from '../../lib/db/exchange-store-pg';
import { createLogger } from '../../lib/log';
import { createExchangeGateway } from '../../lib/exchange-client/exchange-gateway';
import { createExchangeReconciler } from '../../lib/exchange-client/exchange-reconciler';
import { startIdleExchangeSweeper } from '../../lib/exchange-client/idle-exchange-sweeper';
import { eventually, exchangeOfSession, exchangeStartedBy, exchangeStatus } from '../support/exchange-rows';
import { isNotification, isRequest, isResponseTo, LegacySession, type JsonRpcId } from '../support/legacy-client';
import { accept, callUntilAnswered, rawCall, type RpcReply } from '../support/raw-mcp';
import { useTestService, type TestService } from '../support/test-service';

const askForever = defineTool({
  tool: { name: 'ask_forever', inputSchema: { type: 'object' } },
  run: () =>
    inputRequired({
      inputRequests: {
        again: inputRequired.elicit({ message: 'Again?', requestedSchema: { type: 'object', properties: {} } }),
      },
    }),
});
// Values a handler can return that Postgres or JSON cannot hold: the round must end the exchange, not retry forever.
const returnsNul = defineTool({
  tool: { name: 'returns_nul', inputSchema: { type: 'object' } },
  run: () => ({ content: [{ type: 'text', text: 'a\u0000b' }] }),
});
const returnsBigInt = defineTool({
  tool: { name: 'returns_bigint', inputSchema: { type: 'object' } },
  run: () => ({ content: [], n: BigInt(1) }) as never,
});
const handlers: HandlerSet = {
  ...demoHandlers,
  name: 'endings',
  tools: [...demoHandlers.tools, askForever, returnsNul, returnsBigInt],
};

async function askGreet(service: TestService) {
  let first!: RpcReply;
  const exchange = await exchangeStartedBy(service.pool, 'greet', async () => {
    first = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
  });
  expect(first.body.result?.resultType).toBe('input_required');
  const retry = {
    name: 'greet',
    arguments: {},
    inputResponses: { name: accept({ name: 'Ada' }) },
    requestState: first.body.result!.requestState,
  };
  return { exchange, retry, handle: service.temporal.workflow.getHandle(exchange.workflow_id) };
}

async function searchStatus(handle: WorkflowHandle): Promise<unknown> {
  return (await handle.describe()).typedSearchAttributes.get(EXCHANGE_STATUS);
}

describe('exchange endings decided in Temporal', () => {
  const service = useTestService({ HTTP_WAIT_MS: '1500', MAX_ROUNDS: '2' }, { handlers });

  it("ends with -32012 (cancelled by an operator) when the Web UI's Request Cancellation cancels the workflow", async () => {
    const { exchange, retry, handle } = await askGreet(service);
    await handle.cancel();
    expect(await eventually(() => exchangeStatus(service.pool, exchange.id), 'cancelled')).toBe('cancelled');

    const next = await rawCall(service.url, 'tools/call', retry);
    expect(next.body.error?.code).toBe(EXCHANGE_CANCELLED);
    expect(next.body.error?.data).toMatchObject({ exchangeId: exchange.id, cancelledBy: 'operator' });
    expect(await searchStatus(handle)).toBe('cancelled');
    expect((await handle.describe()).status.name).toBe('CANCELLED');
  });

  it('ends with -32013 when the workflow is terminated, and Postgres says terminated', async () => {
    const { exchange, retry, handle } = await askGreet(service);
    await handle.terminate('operator test');

    const next = await rawCall(service.url, 'tools/call', retry);
    expect(next.body.error?.code).toBe(EXCHANGE_TERMINATED);
    expect(next.body.error?.data).toMatchObject({ exchangeId: exchange.id, workflowStatus: 'TERMINATED' });
    expect(await exchangeStatus(service.pool, exchange.id)).toBe('terminated');
    // The same leg again reads the same recorded ending.
    expect((await rawCall(service.url, 'tools/call', retry)).body.error?.code).toBe(EXCHANGE_TERMINATED);
  });

  it('answers a client told to come back with -32013 once the workflow it waits on is terminated', async () => {
    const { exchange, retry, handle } = await askGreet(service);
    await service.stopWorker();
    try {
      const waiting = await rawCall(service.url, 'tools/call', retry); // no worker: the answer is signalled, the leg comes back
      expect(waiting.body.result?.resultType).toBe('input_required');
      expect(waiting.body.result?.inputRequests).toEqual({});
      await handle.terminate();
      const back = await rawCall(service.url, 'tools/call', {
        ...retry,
        requestState: waiting.body.result!.requestState,
      });
      expect(back.body.error?.code).toBe(EXCHANGE_TERMINATED);
      expect(await exchangeStatus(service.pool, exchange.id)).toBe('terminated');
    } finally {
      await service.startWorker();
    }
  });

  it('ends, in the idle sweep, an exchange terminated while no client comes back; one that still waits is left alone', async () => {
    const terminated = await askGreet(service);
    await terminated.handle.terminate();
    const waiting = await askGreet(service);
    await service.pool.query("UPDATE exchanges SET updated_at = now() - interval '1 hour' WHERE id = ANY($1)", [
      [terminated.exchange.id, waiting.exchange.id],
    ]);

    const store = createExchangeStorePg(service.pool);
    const log = createLogger('test', 'silent');
    const reconciler = createExchangeReconciler({
      gateway: createExchangeGateway(service.temporal, service.config.temporal.taskQueue),
      store,
      log,
    });
    const sweeper = startIdleExchangeSweeper(
      { store, reconciler, log },
      { idleMs: 60_000, everyMs: 3_600_000, batch: 10_000 },
    );
    sweeper.stop();
    await sweeper.sweep();

    expect(await exchangeStatus(service.pool, terminated.exchange.id)).toBe('terminated');
    expect(await exchangeStatus(service.pool, waiting.exchange.id)).toBe('running');
    expect((await rawCall(service.url, 'tools/call', waiting.retry)).body.result?.content).toEqual([
      { type: 'text', text: 'Hello, Ada!' },
    ]);
  });

  it.each([
    ['returns_nul', 'a NUL character'],
    ['returns_bigint', 'a BigInt'],
  ])('ends an exchange whose handler result cannot be stored (%s: %s) with -32603, without retrying', async (tool) => {
    const started = Date.now();
    let reply!: RpcReply;
    const exchange = await exchangeStartedBy(service.pool, tool, async () => {
      reply = await rawCall(service.url, 'tools/call', { name: tool, arguments: {} });
    });
    expect(reply.body.error?.code).toBe(INTERNAL_ERROR);
    expect(reply.body.error?.message).toMatch(/could not be recorded/);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await exchangeStatus(service.pool, exchange.id)).toBe('failed');
    const handle = service.temporal.workflow.getHandle(exchange.workflow_id);
    expect((await handle.result()).status).toBe('failed');
  });

  it('records the round cap as capped in Postgres and in the search attribute alike', async () => {
    let reply!: RpcReply;
    const exchange = await exchangeStartedBy(service.pool, 'ask_forever', async () => {
      reply = await rawCall(service.url, 'tools/call', { name: 'ask_forever', arguments: {} });
    });
    for (let i = 0; i < 2 && reply.body.result; i += 1) {
      reply = await rawCall(service.url, 'tools/call', {
        name: 'ask_forever',
        arguments: {},
        inputResponses: { again: accept({}) },
        requestState: reply.body.result.requestState,
      });
    }
    expect(reply.body.error?.code).toBe(ROUND_CAP_EXCEEDED);
    expect(await exchangeStatus(service.pool, exchange.id)).toBe('capped');
    const handle = service.temporal.workflow.getHandle(exchange.workflow_id);
    await handle.result();
    expect(await searchStatus(handle)).toBe('capped');
  });
});

describe('round deadlines are a rule', () => {
  const ROUND_TIMEOUT_MS = 3000;
  const service = useTestService({ HTTP_WAIT_MS: '1000', ROUND_TIMEOUT_MS: String(ROUND_TIMEOUT_MS) });

  const pastDeadline = async (exchangeId: string) => {
    const { rows } = await service.pool.query<{ deadline_at: Date }>(
      'SELECT deadline_at FROM exchange_rounds WHERE exchange_id = $1 AND round = 1',
      [exchangeId],
    );
    const wait = rows[0]!.deadline_at.getTime() - Date.now() + 300;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  };

  it('refuses answers after the deadline with -32001 before signalling, even while no worker runs', async () => {
    const { exchange, retry } = await askGreet(service);
    await service.stopWorker();
    try {
      await pastDeadline(exchange.id);
      const late = await rawCall(service.url, 'tools/call', retry);
      expect(late.body.error?.code).toBe(EXCHANGE_EXPIRED);
      expect(late.body.error?.data).toMatchObject({ exchangeId: exchange.id, round: 1 });
    } finally {
      await service.startWorker();
    }
    expect(await eventually(() => exchangeStatus(service.pool, exchange.id), 'expired')).toBe('expired');
    expect((await rawCall(service.url, 'tools/call', retry)).body.error?.code).toBe(EXCHANGE_EXPIRED);
  });

  it('takes answers signalled in time even when the worker only returns after the deadline', async () => {
    const { exchange, retry } = await askGreet(service);
    await service.stopWorker();
    let comeBack;
    try {
      comeBack = await rawCall(service.url, 'tools/call', retry);
      expect(comeBack.body.result?.inputRequests).toEqual({});
      await pastDeadline(exchange.id); // the timer fires in Temporal with no worker to see it
    } finally {
      await service.startWorker();
    }
    const done = await callUntilAnswered(service.url, 'tools/call', {
      ...retry,
      requestState: comeBack.body.result!.requestState,
    });
    expect(done.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(await exchangeStatus(service.pool, exchange.id)).toBe('completed');
  });
});

describe('exchange endings reach legacy streams', () => {
  const ROUND_TIMEOUT_MS = 3000;
  const service = useTestService({ HTTP_WAIT_MS: '1500', ROUND_TIMEOUT_MS: String(ROUND_TIMEOUT_MS) });

  async function startLegacyGreet() {
    const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
    const { id: callId, stream } = await session.request('tools/call', { name: 'greet', arguments: {} });
    const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'elicitation/create');
    const exchange = await exchangeOfSession(service.pool, session.sessionId, callId);
    return {
      session,
      callId,
      stream,
      askId: ask.message.id as JsonRpcId,
      exchange,
      handle: service.temporal.workflow.getHandle(exchange.workflow_id),
    };
  }

  it.each([
    ['an operator cancels', (h: WorkflowHandle) => h.cancel(), EXCHANGE_CANCELLED, 'cancelled'],
    ['Temporal terminates', (h: WorkflowHandle) => h.terminate(), EXCHANGE_TERMINATED, 'terminated'],
  ])('withdraws the open request and ends the call when %s the workflow', async (_what, end, code, status) => {
    const { session, callId, stream, askId, exchange, handle } = await startLegacyGreet();
    try {
      await end(handle);
      const response = await stream.until((m) => isResponseTo(m, callId), 'the call response', 20_000);
      expect(response.message.error?.code).toBe(code);
      const withdrawn = stream.messages
        .filter((m) => isNotification(m.message, 'notifications/cancelled'))
        .map((m) => m.message.params);
      expect(withdrawn).toEqual([expect.objectContaining({ requestId: askId })]);
      expect(await exchangeStatus(service.pool, exchange.id)).toBe(status);
    } finally {
      await session.close();
    }
  });

  it('drops an answer POSTed after the deadline while no worker runs; the stream carries the expiry', async () => {
    const { session, callId, stream, askId, exchange } = await startLegacyGreet();
    try {
      await service.stopWorker();
      try {
        await new Promise((resolve) => setTimeout(resolve, ROUND_TIMEOUT_MS + 500));
        expect(await session.respond(askId, accept({ name: 'Too late' }))).toBe(202);
      } finally {
        await service.startWorker();
      }
      const response = await stream.until((m) => isResponseTo(m, callId), 'the call response', 20_000);
      expect(response.message.error?.code).toBe(EXCHANGE_EXPIRED);
      expect(await exchangeStatus(service.pool, exchange.id)).toBe('expired');
    } finally {
      await session.close();
    }
  });
});

describe('the worker writes what a legacy client must see', () => {
  const service = useTestService({ HTTP_WAIT_MS: '1500', ROUND_TIMEOUT_MS: '2000' });

  it('has the withdrawal and the expiry in the stream before a disconnected client reconnects', async () => {
    const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
    try {
      const { id: callId, stream } = await session.request('tools/call', { name: 'greet', arguments: {} });
      const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'elicitation/create');
      stream.close(); // the client goes away; no API delivers this call now
      const exchange = await exchangeOfSession(service.pool, session.sessionId, callId);
      expect(await eventually(() => exchangeStatus(service.pool, exchange.id), 'expired')).toBe('expired');

      const { rows } = await service.pool.query<{
        message_key: string;
        message: { method?: string; params?: { requestId?: string }; error?: { code: number } };
      }>('SELECT message_key, message FROM legacy_stream_events WHERE stream_id = $1 ORDER BY id', [
        `call:${exchange.id}`,
      ]);
      const withdrawal = rows.find((r) => r.message.method === 'notifications/cancelled');
      expect(withdrawal?.message.params?.requestId).toBe(ask.message.id);
      const response = rows.at(-1)!;
      expect(response.message.error?.code).toBe(EXCHANGE_EXPIRED);
      expect(rows.indexOf(withdrawal!)).toBeLessThan(rows.indexOf(response));

      // Reconnecting after the ask's event replays exactly that.
      const resumed = await session.listen({ lastEventId: String(ask.eventId) });
      const replayed = await resumed.until((m) => isResponseTo(m, callId), 'the replayed response');
      expect(replayed.message.error?.code).toBe(EXCHANGE_EXPIRED);
      expect(resumed.messages.some((m) => isNotification(m.message, 'notifications/cancelled'))).toBe(true);
      resumed.close();
    } finally {
      await session.close();
    }
  });
});
