/**
 * The retention sweep on a real Postgres: finished exchanges and ended sessions past the retention
 * period go (with everything hanging off them); running ones, and recent ones, stay.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { migrate } from '../../lib/db/migrate';
import { createPool } from '../../lib/db/pool';
import { sweepExpiredRecords } from '../../lib/db/retention';
import { createLogger } from '../../lib/log';
import { readStackInfo } from '../support/stack-info';

const DAY = 86_400_000;

describe('retention sweep', () => {
  let pool: Pool;
  beforeAll(async () => {
    const log = createLogger('retention-test', 'silent');
    pool = createPool(readStackInfo().databaseUrl, 2, log);
    await migrate(pool, log);
  });
  afterAll(async () => {
    await pool?.end();
  });

  async function exchange(status: string, ageDays: number): Promise<string> {
    const id = randomUUID();
    await pool.query(
      `INSERT INTO exchanges (id, workflow_id, era, method, target, request_digest, principal, status, updated_at)
       VALUES ($1, $2, 'modern', 'tools/call', 'greet', 'd', 'anonymous', $3, now() - make_interval(days => $4))`,
      [id, `exchange-${id}`, status, ageDays],
    );
    await pool.query(
      `INSERT INTO exchange_rounds (exchange_id, round, outcome_kind, outcome) VALUES ($1, 1, 'ask', '{}')`,
      [id],
    );
    return id;
  }

  /** A session with one call; `call` says whether it is finished, and which exchange it streams. */
  async function session(ageDays: number, call: { finished: boolean; exchangeId?: string }): Promise<string> {
    const id = randomUUID();
    await pool.query(
      `INSERT INTO legacy_sessions (id, transport, protocol_version, client_capabilities, principal, last_seen_at)
       VALUES ($1, 'streamable-http', '2025-11-25', '{}', 'anonymous', now() - make_interval(days => $2))`,
      [id, ageDays],
    );
    await pool.query(
      `INSERT INTO legacy_calls (session_id, request_id, request_id_json, exchange_id, stream_id, finished_at)
       VALUES ($1, '1', '1', $2, 'call:x', $3)`,
      [id, call.exchangeId ?? randomUUID(), call.finished ? new Date() : null],
    );
    return id;
  }

  const exists = async (table: string, id: string) =>
    (await pool.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).rowCount === 1;

  it('deletes what is finished and old, and keeps what runs or is recent', async () => {
    const oldDone = await exchange('completed', 10);
    const oldRunning = await exchange('running', 10);
    const recentDone = await exchange('completed', 1);
    const oldIdle = await session(10, { finished: true });
    const oldBusy = await session(10, { finished: false, exchangeId: await exchange('running', 10) });
    // Its client never came back for the response of an exchange that ended: it does not stay forever.
    const oldAbandoned = await session(10, { finished: false, exchangeId: await exchange('expired', 10) });
    const recent = await session(1, { finished: true });

    const result = await sweepExpiredRecords(pool, 7 * DAY);
    expect(result!.exchanges).toBeGreaterThanOrEqual(1);

    expect(await exists('exchanges', oldDone)).toBe(false);
    expect((await pool.query('SELECT 1 FROM exchange_rounds WHERE exchange_id = $1', [oldDone])).rowCount).toBe(0);
    expect(await exists('exchanges', oldRunning)).toBe(true);
    expect(await exists('exchanges', recentDone)).toBe(true);
    expect(await exists('legacy_sessions', oldIdle)).toBe(false);
    expect(await exists('legacy_sessions', oldBusy)).toBe(true);
    expect(await exists('legacy_sessions', oldAbandoned)).toBe(false);
    expect(await exists('legacy_sessions', recent)).toBe(true);
  });
});
