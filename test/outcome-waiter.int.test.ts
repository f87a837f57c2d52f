/**
 * The outcome waiter on the LISTEN hub, against the real Postgres: an idle wait re-reads only when
 * notified while the hub listens, polls while its connection is down, re-reads when it is back, and
 * ends at once when the waiter closes.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createExchangeStorePg } from '../lib/db/exchange-store-pg';
import { createOutcomeWaiter, WAITED_CHANNELS, type OutcomeWaiter } from '../lib/db/outcome-waiter';
import { createPgListener, type PgListener } from '../lib/db/pg-listener';
import { createPool } from '../lib/db/pool';
import { LEGACY_STREAM_CHANNEL } from '../lib/db/legacy-store';
import { createLogger } from '../lib/log';
import { readStackInfo } from './support/stack-info';

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
