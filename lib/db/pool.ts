/** The Postgres connection pool and the one way to run work in a transaction. */
import { Pool } from 'pg';
import type { Logger } from '../log';
import { postgresErrorFields } from './connection-loss';

export function createPool(url: string, max: number, log: Logger): Pool {
  const pool = new Pool({ connectionString: url, max, application_name: 'durable-mcp' });
  // An idle client that loses its connection emits here; without a listener it would crash the process.
  // Postgres going away (a restart, a stop) is one line, not a stack trace (connection-loss.ts).
  pool.on('error', (error) => log.warn(postgresErrorFields(error), 'idle Postgres client failed'));
  // A checked-out client has no pool listener: node-postgres emits a connection lost between two
  // queries (a restart, a terminate) on the client itself, and with no listener the process dies.
  // The loss reaches the holder as its next query's rejection, and the pool drops the client on release.
  pool.on('connect', (client) => client.on('error', ignoreHeldClientError));
  return pool;
}

const ignoreHeldClientError = (): void => undefined;

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
