/**
 * Which running exchanges the stuck workflow sweep asks Temporal about, on a real Postgres: only
 * running ones whose row has not moved for the bound, each not again until it is due, never one
 * to two replicas claiming at once.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { migrate } from '../../lib/db/migrate';
import { createPool } from '../../lib/db/pool';
import { createStuckChecksPg } from '../../lib/db/stuck-checks-pg';
import { createLogger } from '../../lib/log';
import { readStackInfo } from '../support/stack-info';

const DAY = 86_400_000;
/** Older than any exchange other tests leave running, so the claims here see only this file's. */
const IDLE_MS = 400 * DAY;

describe('stuck workflow checks', () => {
  let pool: Pool;
  const made: string[] = [];
  beforeAll(async () => {
    const log = createLogger('stuck-checks-test', 'silent');
    pool = createPool(readStackInfo().databaseUrl, 4, log);
    await migrate(pool, log);
  });
  afterAll(async () => {
    await pool?.query('DELETE FROM exchanges WHERE id = ANY($1::uuid[])', [made]);
    await pool?.end();
  });

  async function exchange(status: string, idleDays: number): Promise<string> {
    const id = randomUUID();
    made.push(id);
    await pool.query(
      `INSERT INTO exchanges (id, workflow_id, era, method, target, request_digest, principal, status, updated_at)
       VALUES ($1, $2, 'modern', 'tools/call', 'greet', 'd', 'anonymous', $3, now() - make_interval(days => $4))`,
      [id, `exchange-${id}`, status, idleDays],
    );
    return id;
  }

  const mine = (ids: string[], of: string[]) => ids.filter((id) => of.includes(id)).sort();

  it('claims the running exchanges idle past the bound, then not again until they are due', async () => {
    const checks = createStuckChecksPg(pool);
    const [idleA, idleB, recent, ended] = [
      await exchange('running', 500),
      await exchange('running', 450),
      await exchange('running', 0),
      await exchange('failed', 500),
    ];
    const all = [idleA, idleB, recent, ended];
    expect(mine(await checks.claim(IDLE_MS, 60_000, 1000), all)).toEqual([idleA, idleB].sort());
    // Claimed: not due for another minute.
    expect(mine(await checks.claim(IDLE_MS, 60_000, 1000), all)).toEqual([]);
    // Found failing, due when its failures will have lasted the bound: that time, not before.
    await checks.dueAt(idleA, Date.now() + 60_000);
    await checks.dueAt(idleB, Date.now() - 1_000);
    expect(mine(await checks.claim(IDLE_MS, 60_000, 1000), all)).toEqual([idleB]);
    // The row's own clock is untouched: a check is not a move of the exchange.
    const { rows } = await pool.query<{ idle: boolean }>(
      `SELECT updated_at < now() - interval '449 days' AS idle FROM exchanges WHERE id = $1`,
      [idleB],
    );
    expect(rows[0]?.idle).toBe(true);
  });

  it('gives each due exchange to one of two replicas claiming at once', async () => {
    const checks = createStuckChecksPg(pool);
    const due = [];
    for (let i = 0; i < 6; i++) due.push(await exchange('running', 600 + i));
    const [first, second] = await Promise.all([checks.claim(IDLE_MS, 60_000, 4), checks.claim(IDLE_MS, 60_000, 4)]);
    const a = mine(first, due);
    const b = mine(second, due);
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    expect([...a, ...b].sort()).toEqual([...due].sort());
  });
});
