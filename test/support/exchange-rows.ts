/** Reads the service's record of exchanges in Postgres, for tests that check what it says. */
import type { Pool } from 'pg';

export interface ExchangeRow {
  id: string;
  status: string;
  era: string;
  workflow_id: string;
}

const EXCHANGE_COLUMNS = 'e.id, e.status, e.era, e.workflow_id';

/** The one exchange a legacy session started for `requestId` (its JSON-RPC id), or its only one. */
export async function exchangeOfSession(
  pool: Pool,
  sessionId: string,
  requestId?: string | number,
): Promise<ExchangeRow> {
  const { rows } = await pool.query<ExchangeRow>(
    `SELECT ${EXCHANGE_COLUMNS} FROM legacy_calls c JOIN exchanges e ON e.id = c.exchange_id
      WHERE c.session_id = $1 AND ($2::text IS NULL OR c.request_id = $2)`,
    [sessionId, requestId === undefined ? null : JSON.stringify(requestId)],
  );
  if (rows.length !== 1) throw new Error(`session ${sessionId} has ${rows.length} exchanges, expected one`);
  return rows[0]!;
}

/**
 * Runs `act` and returns the one exchange for `target` it started: for calls made through an
 * official client, which keeps the requestState to itself. Fails if `act` started none or several,
 * so a test never reads another test's exchange.
 */
export async function exchangeStartedBy(pool: Pool, target: string, act: () => Promise<unknown>): Promise<ExchangeRow> {
  const idsOf = async () =>
    new Set(
      (await pool.query<{ id: string }>('SELECT id FROM exchanges WHERE target = $1', [target])).rows.map((r) => r.id),
    );
  const before = await idsOf();
  await act();
  const started = [...(await idsOf())].filter((id) => !before.has(id));
  if (started.length !== 1) throw new Error(`expected one new ${target} exchange, found ${started.length}`);
  return exchangeById(pool, started[0]!);
}

export async function exchangeById(pool: Pool, id: string): Promise<ExchangeRow> {
  const { rows } = await pool.query<ExchangeRow>(`SELECT ${EXCHANGE_COLUMNS} FROM exchanges e WHERE e.id = $1`, [id]);
  if (!rows[0]) throw new Error(`no exchange ${id}`);
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
