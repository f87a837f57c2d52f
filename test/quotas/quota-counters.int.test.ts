/**
 * The quota counters on a real Postgres (migrations/0030, lib/db/quota-counters-pg.ts): concurrent
 * takes from many connections never pass a limit nor deadlock, whatever order they name counters
 * in; a call counts in all of its counters or none; a new window reuses its counter's row; a call
 * given back leaves its window as it was; the retention sweep deletes the counters whose window ended.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { migrate } from '../../lib/db/migrate';
import { createPool } from '../../lib/db/pool';
import { createQuotaCounterStore, type QuotaCounterStore } from '../../lib/db/quota-counters-pg';
import { sweepExpiredRecords } from '../../lib/db/retention';
import { createLogger } from '../../lib/log';
import type { QuotaCounter } from '../../lib/quotas/quota-counters';
import { readStackInfo } from '../support/stack-info';
import { until } from '../support/until';

let pool: Pool;
let store: QuotaCounterStore;

beforeAll(async () => {
  const log = createLogger('quota-counters-test', 'silent');
  pool = createPool(readStackInfo().databaseUrl, 12, log);
  await migrate(pool, log);
  store = createQuotaCounterStore(pool);
});

afterAll(async () => {
  await pool?.end();
});

/** A counter no other test uses, of a day (so no window ends while a test runs, bar midnight UTC). */
const counter = (limit: number, window: 'minute' | 'day' = 'day'): QuotaCounter => ({
  rule: 'test',
  window,
  windowS: window === 'day' ? 86_400 : 60,
  limit,
  key: JSON.stringify(['test', 'principal', randomUUID()]),
});

async function rowsOf(key: string) {
  const { rows } = await pool.query<{ calls: number; window_start: Date; resets_at: Date }>(
    'SELECT calls, window_start, resets_at FROM quota_counters WHERE key = $1',
    [key],
  );
  return rows;
}

describe('taking calls', () => {
  it('lets exactly the limit through from many connections at once, and never deadlocks on the order', async () => {
    const a = counter(7);
    const b = counter(1000);
    const takes = await Promise.all(Array.from({ length: 30 }, (_, i) => store.take(i % 2 === 0 ? [a, b] : [b, a])));
    expect(takes.filter((t) => t.taken)).toHaveLength(7);
    expect((await rowsOf(a.key))[0]!.calls).toBe(7);
    // Refused calls counted nowhere: the other counter holds the calls let through.
    expect((await rowsOf(b.key))[0]!.calls).toBe(7);
  });

  it('counts a call in all its counters or none, and names the full one', async () => {
    const minute = counter(10, 'minute');
    const day = counter(1);
    expect((await store.take([minute, day])).taken).toBe(true);
    const refused = await store.take([minute, day]);
    expect(refused).toMatchObject({ taken: false, refused: day, calls: 1 });
    if (refused.taken) throw new Error('taken');
    // Aligned on the day, by the database's clock.
    expect(refused.windowStart.getTime() % 86_400_000).toBe(0);
    expect(refused.takenAt.getTime() - refused.windowStart.getTime()).toBeLessThan(86_400_000);
    expect((await rowsOf(minute.key))[0]!.calls).toBe(1);
  });

  it('starts a new window in the same row, at zero', async () => {
    const c = counter(2);
    await store.take([c]);
    await store.take([c]);
    expect((await store.take([c])).taken).toBe(false);
    await pool.query(
      `UPDATE quota_counters SET window_start = window_start - interval '1 day', resets_at = resets_at - interval '1 day'
        WHERE key = $1`,
      [c.key],
    );
    expect((await store.take([c])).taken).toBe(true);
    const rows = await rowsOf(c.key);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.calls).toBe(1);
    expect(rows[0]!.resets_at.getTime() - Date.now()).toBeGreaterThan(0);
  });

  it('gives a call back in the window it was taken in, and never below zero or into another window', async () => {
    const c = counter(1);
    const taken = await store.take([c]);
    if (!taken.taken) throw new Error('refused');
    await store.giveBack([c], taken.takenAt);
    expect((await rowsOf(c.key))[0]!.calls).toBe(0);
    await store.giveBack([c], taken.takenAt);
    expect((await rowsOf(c.key))[0]!.calls).toBe(0);
    await store.take([c]);
    await store.giveBack([c], new Date(taken.takenAt.getTime() - 86_400_000));
    expect((await rowsOf(c.key))[0]!.calls).toBe(1);
  });
});

describe('the retention sweep', () => {
  it('deletes the counters whose window ended, and keeps the others', async () => {
    const ended = counter(5, 'minute');
    const current = counter(5);
    await store.take([ended, current]);
    await pool.query(
      `UPDATE quota_counters SET window_start = window_start - interval '2 minutes', resets_at = resets_at - interval '2 minutes'
        WHERE key = $1`,
      [ended.key],
    );
    // Another sweeper (a test service's worker) may hold the sweep's lock: try until this one runs.
    await until('a sweep of this test', async () => (await sweepExpiredRecords(pool, 7 * 86_400_000)) ?? undefined);
    expect(await rowsOf(ended.key)).toEqual([]);
    expect(await rowsOf(current.key)).toHaveLength(1);
  });
});
