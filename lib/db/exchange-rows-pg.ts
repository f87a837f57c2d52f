/**
 * Exchange rows in Postgres (`exchanges`): opened by the API's first leg under the running budgets
 * (the deployment's and a principal's, read in the statement that inserts), with the trace context
 * of that leg; forgotten when the workflow could not start; counted and swept when idle. The row's
 * status, rounds and asks move with each recorded round (exchange-round-record-pg.ts), which writes
 * nothing else of it: a round or a notification creates the row only when it is missing
 * (elseCreatingExchangeRow). One part of the exchange store (exchange-store-pg.ts).
 */
import type { Pool, PoolClient } from 'pg';
import type { ExchangeInput } from '../exchange/types';
import type { ExchangeTraceContext } from '../tracing/exchange-trace';
import { placeholders } from './exchange-round-rows';
import type { ExchangeRoom, ExchangeRowStore } from './exchange-store';

/** What an exchange's row is created with, whichever write creates it: the columns, and their values in order. */
export const EXCHANGE_COLUMNS =
  'id, workflow_id, era, method, target, principal, handler_version, principal_name, principal_email';
/** How many values `exchangeValues` gives (the columns of EXCHANGE_COLUMNS). */
export const EXCHANGE_VALUE_COUNT = 9;
export const exchangeValues = (exchange: ExchangeInput, workflowId: string) => [
  exchange.exchangeId,
  workflowId,
  exchange.era,
  exchange.request.method,
  exchange.request.target,
  exchange.principal,
  // The version of the handlers of the API that started it (migration 0019); none from an older API.
  exchange.handlerVersion ?? null,
  // What its token said of the caller for people to read (migration 0026), bounded when it was read.
  exchange.principalDetails?.name ?? null,
  exchange.principalDetails?.email ?? null,
];

/**
 * Whether a new exchange has room (`ok`: the deployment's budget `$10`; `principal_ok`: its
 * principal `$6`'s budget `$11`), read in the statement that inserts it.
 */
export const ROOM_SQL = `
    SELECT $10::bigint IS NULL OR coalesce(sum(running), 0) < $10::bigint AS ok,
           CASE WHEN $11::bigint IS NULL THEN true
                ELSE (SELECT count(*) FROM exchanges WHERE principal = $6 AND status = 'running') < $11::bigint
           END AS principal_ok
      FROM exchange_running_counts
  `;

/**
 * Creates an exchange's row (status running) unless it exists (`$1`-`$9`, exchangeValues). With a
 * budget (`$10`), only while fewer exchanges than that run: the count is read in the same statement,
 * from the counters the row's own insert moves (migration 0015). With a budget for its principal
 * (`$11`), only while the principal (`$6`) runs fewer than that, counted on the running rows'
 * principal index (migration 0017). The trace context of the leg that starts it (`$12`, `$13`,
 * migration 0020) is written with it. One row back: whether there was room in each (the insert runs
 * whether or not the query reads it).
 */
const CREATE_EXCHANGE = `
  WITH room AS (${ROOM_SQL}), created AS (
    INSERT INTO exchanges (${EXCHANGE_COLUMNS}, traceparent, tracestate, status)
    SELECT ${placeholders(1, EXCHANGE_VALUE_COUNT)}, $12, $13, 'running' FROM room WHERE room.ok AND room.principal_ok
    ON CONFLICT (id) DO NOTHING
    RETURNING 1
  )
  SELECT ok, principal_ok FROM room`;

/** `$1`-`$13` of a statement that opens an exchange: its row, its budgets, its first leg's trace context. */
export const openingValues = (
  exchange: ExchangeInput,
  workflowId: string,
  maxRunning?: number,
  maxRunningOfPrincipal?: number,
  trace?: ExchangeTraceContext,
) => [
  ...exchangeValues(exchange, workflowId),
  maxRunning ?? null,
  maxRunningOfPrincipal ?? null,
  trace?.traceparent ?? null,
  trace?.tracestate ?? null,
];

/** Creates the exchange row on its first write, whichever write that is, unless a budget is full. */
export async function createExchange(
  client: Pool | PoolClient,
  exchange: ExchangeInput,
  workflowId: string,
  maxRunning?: number,
  maxRunningOfPrincipal?: number,
  trace?: ExchangeTraceContext,
): Promise<ExchangeRoom> {
  const { rows } = await client.query<{ ok: boolean; principal_ok: boolean }>({
    name: 'create-exchange',
    text: CREATE_EXCHANGE,
    values: openingValues(exchange, workflowId, maxRunning, maxRunningOfPrincipal, trace),
  });
  const { ok, principal_ok } = rows[0]!;
  return !ok ? 'full' : principal_ok ? 'room' : 'full-for-principal';
}

/** The foreign keys by which a round or an event refuses an exchange that has no row. */
const EXCHANGE_ROW_KEYS = new Set(['exchange_rounds_exchange_id_fkey', 'exchange_events_exchange_id_fkey']);

/** Whether `error` is Postgres refusing a round's or an event's insert because its exchange has no row. */
const missingExchangeRow = (error: unknown) =>
  (error as { code?: unknown }).code === '23503' &&
  EXCHANGE_ROW_KEYS.has((error as { constraint?: unknown }).constraint as string);

/**
 * Runs `write`, which writes only what it changes and counts on the exchange's row being there
 * (its first leg wrote it). When it is not (the exchange was started by a release that did not
 * write it, or its first leg gave up on a start that went through after all and forgot the row),
 * the foreign key refuses the write, which then changed nothing, and `writeCreatingRow` runs
 * instead: the same write, creating the row.
 */
export async function elseCreatingExchangeRow<T>(
  write: () => Promise<T>,
  writeCreatingRow: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!missingExchangeRow(error)) throw error;
  }
  return writeCreatingRow();
}

export function createExchangeRowsPg(pool: Pool): ExchangeRowStore {
  return {
    createExchange: (exchange, workflowId, maxRunning, maxRunningOfPrincipal, trace) =>
      createExchange(pool, exchange, workflowId, maxRunning, maxRunningOfPrincipal, trace),

    async readCall(exchangeId) {
      const { rows } = await pool.query<{ principal: string; method: string; target: string }>({
        name: 'read-exchange-call',
        text: 'SELECT principal, method, target FROM exchanges WHERE id = $1',
        values: [exchangeId],
      });
      return rows[0];
    },

    async readTraceContext(exchangeId) {
      const { rows } = await pool.query<{ traceparent: string | null; tracestate: string | null }>({
        name: 'read-trace-context',
        text: 'SELECT traceparent, tracestate FROM exchanges WHERE id = $1',
        values: [exchangeId],
      });
      const { traceparent, tracestate } = rows[0] ?? {};
      if (!traceparent) return undefined;
      return { traceparent, ...(tracestate ? { tracestate } : {}) };
    },

    async forgetUnstarted(exchangeId) {
      await pool.query({
        text: 'DELETE FROM exchanges WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM exchange_rounds WHERE exchange_id = $1)',
        values: [exchangeId],
      });
    },

    async countRunning() {
      const { rows } = await pool.query<{ n: string }>(
        'SELECT coalesce(sum(running), 0) AS n FROM exchange_running_counts',
      );
      return Number(rows[0]?.n ?? 0);
    },

    async idleRunning(idleMs, limit) {
      const { rows } = await pool.query<{ id: string }>({
        text: `SELECT id FROM exchanges WHERE status = 'running' AND updated_at < now() - make_interval(secs => $1)
               ORDER BY updated_at LIMIT $2`,
        values: [idleMs / 1000, limit],
      });
      return rows.map((row) => row.id);
    },
  };
}
