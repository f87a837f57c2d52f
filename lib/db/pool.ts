import { Pool } from 'pg';
import type { Logger } from '../log';

export function createPool(url: string, max: number, log: Logger): Pool {
  const pool = new Pool({ connectionString: url, max, application_name: 'durable-mcp' });
  // An idle client that loses its connection emits here; without a listener it would crash the process.
  pool.on('error', (error) => log.warn({ err: error }, 'idle Postgres client failed'));
  return pool;
}

/** Runs `work` in one transaction, rolling back on any error. */
export async function inTransaction<T>(pool: Pool, work: (client: import('pg').PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
