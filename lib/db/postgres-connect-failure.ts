/**
 * A start-up connection to Postgres that failed, in one line: where (DATABASE_URL's host, port and
 * database, never its password), what went wrong (nothing listening, a host that does not
 * resolve, a refused password, a database that does not exist, no answer) and which variable to
 * check, as the Temporal connection's failure already says it.
 */
import type { Pool } from 'pg';
import { StartError } from '../start-error';

export class PostgresConnectError extends StartError {
  override readonly name = 'PostgresConnectError';
}

/** What a failed connection's code means, and what to do about it. */
const REASONS: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there: is Postgres running, and is DATABASE_URL its address?',
  ENOTFOUND: 'the host does not resolve: check the host in DATABASE_URL',
  EAI_AGAIN: 'the host does not resolve: check the host in DATABASE_URL',
  ETIMEDOUT: 'no answer: check the host, the port and the network between them',
  EHOSTUNREACH: 'the host is unreachable: check the host in DATABASE_URL and the network',
  '28P01': 'the password was refused: check the user and password in DATABASE_URL',
  '28000': 'the server refused this user or client: check DATABASE_URL and pg_hba.conf',
  '3D000': 'the database does not exist: create it, or name another in DATABASE_URL',
};

/** Where `url` points, without its credentials. */
function whereOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname || ''}`;
  } catch {
    return 'DATABASE_URL';
  }
}

export function describePostgresFailure(url: string, error: unknown): PostgresConnectError {
  const code = String((error as { code?: unknown })?.code ?? '');
  const reason = REASONS[code] ?? ((error as Error)?.message ?? String(error)).split('\n')[0];
  return new PostgresConnectError(`Postgres at ${whereOf(url)} (DATABASE_URL) could not be reached: ${reason}`, {
    cause: error,
  });
}

/** Connects once, as a start's first use of Postgres, so a failure says where and why in one line. */
export async function checkPostgresReachable(pool: Pool, url: string): Promise<void> {
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    throw describePostgresFailure(url, error);
  }
}
