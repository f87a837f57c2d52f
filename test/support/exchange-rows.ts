/** Reads the service's record of exchanges in Postgres, for tests that check what it says. */
import type { Pool } from 'pg';

export interface ExchangeRow {
  id: string;
  status: string;
  era: string;
  workflow_id: string;
}

export async function latestExchange(pool: Pool, target: string): Promise<ExchangeRow> {
  const { rows } = await pool.query<ExchangeRow>(
    'SELECT id, status, era, workflow_id FROM exchanges WHERE target = $1 ORDER BY created_at DESC LIMIT 1',
    [target],
  );
  if (!rows[0]) throw new Error(`no exchange for ${target}`);
  return rows[0];
}

export async function exchangeStatus(pool: Pool, id: string): Promise<string | undefined> {
  const { rows } = await pool.query<{ status: string }>('SELECT status FROM exchanges WHERE id = $1', [id]);
  return rows[0]?.status;
}

export async function countExchanges(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM exchanges');
  return Number(rows[0]!.n);
}

/** Polls `read` until it returns `expected` (or the deadline passes, returning the last value). */
export async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (value !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}
