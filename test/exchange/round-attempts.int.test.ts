/**
 * A round whose handler keeps killing its worker is retried a bounded number of times, then ends
 * its exchange. The activity runs under Temporal's activity test environment (to give it the
 * attempt number a retry would have) against the real Postgres.
 */
import { randomUUID } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createRunRound } from '../../activities/run-round';
import { createExchangeStorePg } from '../../lib/db/exchange-store-pg';
import { createPool } from '../../lib/db/pool';
import { migrate } from '../../lib/db/migrate';
import type { ExchangeInput, RoundSummary } from '../../lib/exchange/types';
import { defineTool } from '@durable-mcp/handlers';
import { createLogger } from '../../lib/log';
import { createHandlerStateCodec } from '../../lib/state/handler-state';
import { createSealer } from '../../lib/state/sealer';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { readStackInfo } from '../support/stack-info';
import { TEST_KEY_RING } from '../support/test-service';
import { defaultHandlerBounds } from '../support/handler-bounds';

const log = createLogger('test', 'silent');
const pool = createPool(readStackInfo().databaseUrl, 2, log);
const store = createExchangeStorePg(pool);
let runs = 0;
const counted = defineTool({
  tool: { name: 'counted', inputSchema: { type: 'object' } },
  run: () => {
    runs += 1;
    return { content: [{ type: 'text', text: 'ran' }] };
  },
});
const [kid, key] = TEST_KEY_RING.split(':') as [string, string];
const runRound = createRunRound({
  store,
  handlers: { name: 'attempts', tools: [counted] },
  handlerState: createHandlerStateCodec(createSealer([{ kid, key: Buffer.from(key, 'base64') }])),
  log,
  ...defaultHandlerBounds(),
  maxHandlerAttempts: 3,
});

async function newExchange(): Promise<ExchangeInput> {
  const exchange: ExchangeInput = {
    exchangeId: randomUUID(),
    era: 'modern',
    request: { method: 'tools/call', target: 'counted', params: { name: 'counted', arguments: {} } },
    principal: 'anonymous',
    clientCapabilities: {},
    roundTimeoutMs: 60_000,
    maxRounds: 8,
  };
  await store.createExchange(exchange, workflowIdFor(exchange.exchangeId));
  return exchange;
}

const attemptOf = (
  exchange: ExchangeInput,
  attempt: number,
  isLocal = false,
  firstStart?: true,
): Promise<RoundSummary> =>
  new MockActivityEnvironment({ attempt, isLocal }).run(runRound, {
    exchange,
    round: 1,
    mayAsk: true,
    ...(firstStart ? { firstStart } : {}),
  });

const startsOf = async (exchange: ExchangeInput) =>
  (
    await pool.query<{ starts: number }>('SELECT starts FROM exchange_round_starts WHERE exchange_id = $1', [
      exchange.exchangeId,
    ])
  ).rows.map((row) => row.starts);

beforeAll(() => migrate(pool, log));
afterAll(() => pool.end());
beforeEach(() => {
  runs = 0;
});

describe('a round whose attempts keep failing (regular activity)', () => {
  it('runs the handler on retries below MAX_HANDLER_ATTEMPTS, counting only retried starts', async () => {
    const exchange = await newExchange();
    await store.countHandlerStart(exchange.exchangeId, 1); // attempt 2 started and its worker died
    const summary = await attemptOf(exchange, 3);
    expect(summary.kind).toBe('complete');
    expect(runs).toBe(1);
  });

  it('ends the exchange with -32603 once MAX_HANDLER_ATTEMPTS retried attempts started the handler, without running it again', async () => {
    const exchange = await newExchange();
    await store.countHandlerStart(exchange.exchangeId, 1);
    await store.countHandlerStart(exchange.exchangeId, 1); // attempts 2 and 3 started and died
    const summary = await attemptOf(exchange, 4);
    expect(runs).toBe(0);
    expect(summary).toMatchObject({ kind: 'error', errorCode: -32603, status: 'failed' });
    const record = await store.readRound(exchange.exchangeId, 1);
    expect(record?.outcome).toMatchObject({
      kind: 'error',
      error: { message: expect.stringMatching(/did not finish in 3 attempts/) },
    });
  });

  it('counts nothing on a first attempt', async () => {
    const exchange = await newExchange();
    await attemptOf(exchange, 1);
    const { rows } = await pool.query('SELECT * FROM exchange_round_starts WHERE exchange_id = $1', [
      exchange.exchangeId,
    ]);
    expect(rows).toEqual([]);
    expect(runs).toBe(1);
  });
});

// A local activity runs inside its workflow task: when its worker dies, the task that runs the round
// again starts it at attempt 1, so the attempt number cannot tell a retry. Every start counts.
describe('a round whose attempts keep failing (local activity)', () => {
  it('counts its first start, and runs the handler', async () => {
    const exchange = await newExchange();
    const summary = await attemptOf(exchange, 1, true);
    expect(summary.kind).toBe('complete');
    expect(runs).toBe(1);
    expect(await startsOf(exchange)).toEqual([1]);
  });

  it('runs the handler while fewer than MAX_HANDLER_ATTEMPTS earlier starts died, though its attempt is 1', async () => {
    const exchange = await newExchange();
    await store.countHandlerStart(exchange.exchangeId, 1);
    await store.countHandlerStart(exchange.exchangeId, 1); // the first start and one retry died with their workers
    const summary = await attemptOf(exchange, 1, true);
    expect(summary.kind).toBe('complete');
    expect(runs).toBe(1);
  });

  it('ends the exchange with -32603 once MAX_HANDLER_ATTEMPTS retried starts died, without running it again', async () => {
    const exchange = await newExchange();
    for (let i = 0; i < 3; i += 1) await store.countHandlerStart(exchange.exchangeId, 1); // first start + 2 retries died
    const summary = await attemptOf(exchange, 1, true);
    expect(runs).toBe(0);
    expect(summary).toMatchObject({ kind: 'error', errorCode: -32603, status: 'failed' });
    expect((await store.readRound(exchange.exchangeId, 1))?.outcome).toMatchObject({
      error: { message: expect.stringMatching(/did not finish in 3 attempts/) },
    });
  });

  it('reads a recorded round back without counting a start or running the handler', async () => {
    const exchange = await newExchange();
    await attemptOf(exchange, 1, true);
    runs = 0;
    const again = await attemptOf(exchange, 1, true); // its worker died after recording, before the task completed
    expect(again.kind).toBe('complete');
    expect(runs).toBe(0);
    expect(await startsOf(exchange)).toEqual([1]);
  });
});

// The workflow vouches for a first start it can prove (workflows/first-start.ts): the round is then
// its record alone. Only a first attempt takes its word: an activity's own retry reads and counts.
describe.each([
  ['local', true],
  ['regular', false],
])('a first start the workflow vouches for (%s activity)', (_, isLocal) => {
  it('runs the handler and records the round without counting a start', async () => {
    const exchange = await newExchange();
    const summary = await attemptOf(exchange, 1, isLocal, true);
    expect(summary.kind).toBe('complete');
    expect(runs).toBe(1);
    expect(await startsOf(exchange)).toEqual([]);
    expect((await store.readRound(exchange.exchangeId, 1))?.outcome.kind).toBe('complete');
  });

  it("is not taken on the activity's own retry: a recorded round is read back, not run again", async () => {
    const exchange = await newExchange();
    await attemptOf(exchange, 1, isLocal, true);
    runs = 0;
    const again = await attemptOf(exchange, 2, isLocal, true);
    expect(again.kind).toBe('complete');
    expect(runs).toBe(0);
  });
});
