/**
 * A pool client whose connection Postgres ends (a restart, an administrator's terminate) while the
 * service holds it between queries: the process lives on, the client is not handed out again, and
 * the pool gives a working client next. Without a listener on the checked-out client, node-postgres
 * emits the error with nobody to hear it, and the API or worker process dies.
 */
import type { Pool } from 'pg';
import { createPool } from '../../lib/db/pool';
import { createLogger } from '../../lib/log';
import { readStackInfo } from '../support/stack-info';

describe('a pool client whose connection ends while it is checked out', () => {
  let pool: Pool;
  let admin: Pool;
  beforeAll(() => {
    const log = createLogger('pool-connection-loss-test', 'silent');
    pool = createPool(readStackInfo().databaseUrl, 2, log);
    admin = createPool(readStackInfo().databaseUrl, 1, log);
  });
  afterAll(async () => {
    await pool?.end();
    await admin?.end();
  });

  it('is heard (no uncaught error event), removed from the pool, and the next client works', async () => {
    const client = await pool.connect();
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const ended = new Promise((resolve) => client.once('end', resolve));
    // Between two queries: no query is active to reject, so the error goes to the client's listeners.
    await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
    await ended;
    await expect(client.query('SELECT 1')).rejects.toThrow();
    client.release();

    const next = await pool.query<{ one: number }>('SELECT 1 AS one');
    expect(next.rows[0]!.one).toBe(1);
    expect(pool.totalCount).toBe(1);
  });
});
