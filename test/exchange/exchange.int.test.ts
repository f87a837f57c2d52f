/**
 * The durable exchange engine end to end: official 2026-07-28 client → API → Temporal workflow →
 * worker activity → Postgres → API, on the real Temporal dev server and a real Postgres.
 */
import { EXCHANGE_EXPIRED, ROUND_CAP_EXCEEDED } from '../../lib/protocol/exchange-errors';
import { INVALID_PARAMS } from '../../lib/protocol/json-rpc-codes';
import { exchangeStartedBy } from '../support/exchange-rows';
import { connectModernClient } from '../support/modern-client';
import { accept, rawCall, type RpcReply } from '../support/raw-mcp';
import { startTestService, useTestService, type TestService } from '../support/test-service';

async function roundsOf(service: TestService, exchangeId: string) {
  const { rows } = await service.pool.query<{ round: number; outcome_kind: string }>(
    'SELECT round, outcome_kind FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round',
    [exchangeId],
  );
  return rows;
}

/** Runs `act` and returns the id of the one `target` exchange it started. */
async function idOfExchangeStartedBy(service: TestService, target: string, act: () => Promise<unknown>) {
  return (await exchangeStartedBy(service.pool, target, act)).id;
}

describe('durable exchange engine', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('completes the greet tool in two legs with the official client', async () => {
    const asked: string[] = [];
    const client = await connectModernClient(service.url, ({ message }) => {
      asked.push(message);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    let exchangeId: string;
    try {
      exchangeId = await idOfExchangeStartedBy(service, 'greet', async () => {
        const result = await client.callTool({ name: 'greet', arguments: { greeting: 'Welcome' } });
        expect(result.content).toEqual([{ type: 'text', text: 'Welcome, Ada!' }]);
      });
      expect(asked).toEqual(['What is your name?']);
    } finally {
      await client.close();
    }
    expect(await roundsOf(service, exchangeId)).toEqual([
      { round: 1, outcome_kind: 'ask' },
      { round: 2, outcome_kind: 'complete' },
    ]);
  });

  it('advances the exchange once when the same retry is sent twice', async () => {
    let first!: RpcReply;
    const exchangeId = await idOfExchangeStartedBy(service, 'greet', async () => {
      first = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
    });
    const ask = first.body.result!;
    expect(ask.resultType).toBe('input_required');
    const retry = {
      name: 'greet',
      arguments: {},
      inputResponses: { name: accept({ name: 'Grace' }) },
      requestState: ask.requestState,
    };

    const [a, b] = [await rawCall(service.url, 'tools/call', retry), await rawCall(service.url, 'tools/call', retry)];
    expect(a.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Grace!' }]);
    expect(b.body.result).toEqual(a.body.result);

    expect((await roundsOf(service, exchangeId)).map((r) => r.round)).toEqual([1, 2]);

    const conflicting = await rawCall(service.url, 'tools/call', {
      ...retry,
      inputResponses: { name: accept({ name: 'Linus' }) },
    });
    expect(conflicting.status).toBe(400);
    expect(conflicting.body.error?.code).toBe(INVALID_PARAMS);
  });

  it('refuses the ninth ask with the round cap error', async () => {
    let asks = 0;
    const client = await connectModernClient(service.url, () => {
      asks += 1;
      return { action: 'accept', content: { guess: 0 } }; // never right: the secret is at least 1
    });
    let exchangeId: string;
    try {
      exchangeId = await idOfExchangeStartedBy(service, 'guess_number', () =>
        expect(client.callTool({ name: 'guess_number', arguments: { max: 1000 } })).rejects.toMatchObject({
          code: ROUND_CAP_EXCEEDED,
        }),
      );
    } finally {
      await client.close();
    }
    expect(asks).toBe(8);
    const rounds = await roundsOf(service, exchangeId);
    expect(rounds).toHaveLength(9);
    expect(rounds.at(-1)).toEqual({ round: 9, outcome_kind: 'error' });
    const { rows } = await service.pool.query('SELECT status, asks FROM exchanges WHERE id = $1', [exchangeId]);
    expect(rows[0]).toEqual({ status: 'capped', asks: 8 });
  });

  it('rejects a tampered requestState with -32602 and advances nothing', async () => {
    let first!: RpcReply;
    const exchangeId = await idOfExchangeStartedBy(service, 'greet', async () => {
      first = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
    });
    const state = String(first.body.result!.requestState);
    const tampered = state.slice(0, -2) + (state.at(-2) === 'A' ? 'B' : 'A') + state.slice(-1);
    const reply = await rawCall(service.url, 'tools/call', {
      name: 'greet',
      arguments: {},
      inputResponses: { name: accept({ name: 'Eve' }) },
      requestState: tampered,
    });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual({ code: INVALID_PARAMS, message: 'Invalid or expired requestState' });
    expect(await roundsOf(service, exchangeId)).toHaveLength(1);
  });

  it('finishes an exchange whose worker stopped between two legs', async () => {
    const first = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
    await service.stopWorker();
    try {
      const slow = await startTestService({
        HTTP_WAIT_MS: '1500',
        TEMPORAL_TASK_QUEUE: service.config.temporal.taskQueue,
      });
      try {
        await slow.stopWorker(); // the API of this replica shares the queue; no worker runs at all
        const waiting = await rawCall(slow.url, 'tools/call', {
          name: 'greet',
          arguments: {},
          inputResponses: { name: accept({ name: 'Barbara' }) },
          requestState: first.body.result!.requestState,
        });
        // The answer is durable in Temporal; the client is told to come back.
        expect(waiting.body.result).toMatchObject({ resultType: 'input_required' });
        expect(waiting.body.result!.inputRequests).toEqual({}); // state-only: nothing to answer

        await service.startWorker();
        let reply = waiting;
        for (let leg = 0; leg < 20 && reply.body.result?.resultType === 'input_required'; leg++) {
          reply = await rawCall(slow.url, 'tools/call', {
            name: 'greet',
            arguments: {},
            requestState: reply.body.result.requestState,
          });
        }
        expect(reply.body).toMatchObject({ result: { content: [{ type: 'text', text: 'Hello, Barbara!' }] } });
      } finally {
        await slow.close();
      }
    } finally {
      await service.startWorker();
    }
  });
});

describe('round timeout', () => {
  const service = useTestService({ ROUND_TIMEOUT_MS: '2000' });

  it('ends an unanswered exchange with an expiry error for whoever comes next', async () => {
    let first!: RpcReply;
    const exchangeId = await idOfExchangeStartedBy(service, 'greet', async () => {
      first = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
    });
    expect(first.body.result?.resultType).toBe('input_required');
    // Wait for the durable timer to fire and the expiry to be recorded.
    for (let i = 0; i < 40; i++) {
      const { rows } = await service.pool.query('SELECT status FROM exchanges WHERE id = $1', [exchangeId]);
      if (rows[0]?.status === 'expired') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const late = await rawCall(service.url, 'tools/call', {
      name: 'greet',
      arguments: {},
      inputResponses: { name: accept({ name: 'Late' }) },
      requestState: first.body.result!.requestState,
    });
    expect(late.body.error).toMatchObject({
      code: EXCHANGE_EXPIRED,
      data: { exchangeId, round: 1, roundTimeoutMs: 2000 },
    });
  });
});
