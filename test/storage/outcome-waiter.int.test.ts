/**
 * The outcome waiter on the LISTEN hub, against the real Postgres: an idle wait re-reads only when
 * notified while the hub listens, polls while its connection is down, re-reads when it is back, and
 * ends at once when the waiter closes; a round's wait hears its outcome in the announcement without
 * a read, and reads when the announcement carries only its key.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { ExchangeStore } from '../../lib/db/exchange-store';
import { createExchangeStorePg } from '../../lib/db/exchange-store-pg';
import { createOutcomeWaiter, WAITED_CHANNELS, type OutcomeWaiter } from '../../lib/db/outcome-waiter';
import { migrate } from '../../lib/db/migrate';
import { createPgListener, type PgListener } from '../../lib/db/pg-listener';
import { createPool } from '../../lib/db/pool';
import { LEGACY_STREAM_CHANNEL } from '../../lib/db/legacy-store';
import type { ExchangeInput } from '../../lib/exchange/types';
import { createLogger } from '../../lib/log';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { readStackInfo } from '../support/stack-info';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('outcome waiter', () => {
  const log = createLogger('test', 'silent');
  const applicationName = `waiter-test-${randomUUID().slice(0, 8)}`;
  let pool: Pool;
  let listener: PgListener;
  let waiter: OutcomeWaiter;
  beforeAll(async () => {
    const { databaseUrl } = readStackInfo();
    pool = createPool(databaseUrl, 2, log);
    listener = await createPgListener({ databaseUrl, channels: WAITED_CHANNELS, log, applicationName });
    waiter = createOutcomeWaiter({ listener, store: createExchangeStorePg(pool), pollMs: 50, log });
  });
  afterAll(async () => {
    await waiter?.close();
    await listener?.close();
    await pool?.end();
  });

  it('re-reads on notification only while listening, polls while the listener is down, and re-reads when it is back', async () => {
    const payload = randomUUID();
    let reads = 0;
    const recorded: { value?: string } = {};
    const waiting = waiter.waitFor(
      LEGACY_STREAM_CHANNEL,
      payload,
      async () => {
        reads += 1;
        return recorded.value;
      },
      30_000,
    );

    // Polling every 50 ms would read about 12 times here; a listening waiter reads once (a stray
    // wake-up on a busy machine is tolerated, a poll is not).
    await sleep(600);
    const quiet = reads;
    expect(quiet).toBeLessThanOrEqual(2);
    await pool.query('SELECT pg_notify($1, $2)', [LEGACY_STREAM_CHANNEL, payload]);
    await sleep(200);
    expect(reads).toBeGreaterThan(quiet);
    const notified = reads;
    expect(notified).toBeLessThanOrEqual(quiet + 2);
    await pool.query('SELECT pg_notify($1, $2)', [LEGACY_STREAM_CHANNEL, 'someone-else']);
    await sleep(200);
    expect(reads).toBe(notified);

    // The LISTEN connection drops: what is recorded meanwhile is found by polling.
    await pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
      applicationName,
    ]);
    await sleep(150);
    const whileDown = reads;
    expect(whileDown).toBeGreaterThan(notified);
    recorded.value = 'recorded while nobody listened';
    await expect(waiting).resolves.toBe('recorded while nobody listened');

    // Once the listener is back (it listens once every LISTEN has finished), an idle waiter is quiet again.
    for (let i = 0; i < 50 && !listener.listening; i++) await sleep(100);
    expect(listener.listening).toBe(true);
    await sleep(200);
    let idleReads = 0;
    const idle = waiter.waitFor(LEGACY_STREAM_CHANNEL, randomUUID(), async () => void (idleReads += 1), 500);
    await expect(idle).resolves.toBeUndefined();
    expect(idleReads).toBeLessThanOrEqual(2);
  });
});

describe('outcome waiter close', () => {
  it('ends every wait at once, as not found, and leaves the listener to its owner', async () => {
    const log = createLogger('test', 'silent');
    const { databaseUrl } = readStackInfo();
    const pool = createPool(databaseUrl, 1, log);
    const listener = await createPgListener({ databaseUrl, channels: WAITED_CHANNELS, log });
    try {
      const waiter = createOutcomeWaiter({ listener, store: createExchangeStorePg(pool), pollMs: 50, log });
      const started = Date.now();
      const waiting = waiter.waitFor(LEGACY_STREAM_CHANNEL, randomUUID(), async () => undefined, 30_000);
      await sleep(100);
      await waiter.close();
      await expect(waiting).resolves.toBeUndefined();
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(listener.listening).toBe(true);
    } finally {
      await listener.close();
      await pool.end();
    }
  });
});

describe("a round's wait", () => {
  const log = createLogger('test', 'silent');
  let pool: Pool;
  let listener: PgListener;
  let store: ExchangeStore;
  let waiter: OutcomeWaiter;
  let reads = 0;
  beforeAll(async () => {
    const { databaseUrl } = readStackInfo();
    pool = createPool(databaseUrl, 2, log);
    await migrate(pool, log);
    listener = await createPgListener({ databaseUrl, channels: WAITED_CHANNELS, log });
    store = createExchangeStorePg(pool);
    // The waiter's reads are counted; the test's own go to `store`.
    const counted: ExchangeStore = {
      ...store,
      readRound: (exchangeId, round) => {
        reads += 1;
        return store.readRound(exchangeId, round);
      },
    };
    waiter = createOutcomeWaiter({ listener, store: counted, pollMs: 50, log });
  });
  afterAll(async () => {
    await waiter?.close();
    await listener?.close();
    await pool?.end();
  });
  beforeEach(() => {
    reads = 0;
  });

  const exchangeInput = (): ExchangeInput => ({
    exchangeId: randomUUID(),
    era: 'modern',
    request: { method: 'tools/call', target: 'waiter_test', params: { name: 'waiter_test', arguments: {} } },
    principal: 'anonymous',
    clientCapabilities: {},
    roundTimeoutMs: 60_000,
    maxRounds: 8,
  });
  const record = (exchange: ExchangeInput, outcome: Parameters<ExchangeStore['recordRound']>[0]['outcome']) =>
    store.recordRound({ exchange, workflowId: workflowIdFor(exchange.exchangeId), round: 1, outcome });
  const done = { kind: 'complete' as const, result: { content: [{ type: 'text', text: 'done' }] } };

  it('hears the outcome in its announcement: a watch begun before anything could record it never reads', async () => {
    const exchange = exchangeInput();
    const watch = waiter.watchRound(exchange.exchangeId, 1);
    const waiting = watch.wait(10_000, { absent: true });
    await sleep(100);
    await record(exchange, done);
    const heard = await waiting;
    expect(heard).toStrictEqual(await store.readRound(exchange.exchangeId, 1));
    expect(reads).toBe(0);
  });

  it('hears an outcome announced after the watch began and before its wait', async () => {
    const exchange = exchangeInput();
    const watch = waiter.watchRound(exchange.exchangeId, 1);
    await record(exchange, done);
    await sleep(100);
    expect((await watch.wait(10_000, { absent: true }))?.outcome).toEqual(done);
    expect(reads).toBe(0);
  });

  it('reads first unless told nothing was there, and finds what was recorded before the watch', async () => {
    const exchange = exchangeInput();
    await record(exchange, done);
    expect((await waiter.wait(exchange.exchangeId, 1, 10_000))?.outcome).toEqual(done);
    expect(reads).toBe(1);
  });

  it('reads the row when the announcement carries only its key (an outcome too large for it)', async () => {
    const exchange = exchangeInput();
    const big = { kind: 'complete' as const, result: { content: [{ type: 'text', text: 'x'.repeat(9_000) }] } };
    const waiting = waiter.watchRound(exchange.exchangeId, 1).wait(10_000, { absent: true });
    await sleep(100);
    await record(exchange, big);
    expect((await waiting)?.outcome).toEqual(big);
    expect(reads).toBe(1);
  });

  it('reads once more when its budget ends, and then says nothing came', async () => {
    const exchange = exchangeInput();
    await expect(waiter.watchRound(exchange.exchangeId, 1).wait(300, { absent: true })).resolves.toBeUndefined();
    expect(reads).toBe(1);
  });
});
