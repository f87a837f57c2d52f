/**
 * A first leg that may join a call already running instead of starting another (migration 0027):
 * its row is created as createExchange creates it, under the same budgets, unless its caller has
 * an exchange for the same call that it joins: the one with the same idempotency key (whatever
 * its status, for as long as its row is kept), or, without a key, the running exchange of an
 * identical call that takes joiners and started within the window. Unique indexes hold both, so
 * of two repeats racing each other one creates the row and the other joins it (on its next try).
 * A repeat joins without room: it starts nothing.
 */
import type { Pool } from 'pg';
import type { ExchangeInput } from '../exchange/types';
import type { ExchangeTraceContext } from '../tracing/exchange-trace';
import { EXCHANGE_COLUMNS, EXCHANGE_VALUE_COUNT, openingValues, ROOM_SQL } from './exchange-rows-pg';
import { placeholders } from './exchange-round-rows';
import type { CallIdentity, ExchangeJoinStore, JoinedOrRoom } from './exchange-store';

/**
 * `$1`-`$9` the row (exchangeValues), `$10`/`$11` the budgets, `$12`/`$13` the trace, `$14` the
 * call's digest, `$15` its idempotency key, `$16` whether identical calls may join it, `$17` for
 * how long after it started (ms). One row back: the exchange it joins (with that exchange's call
 * digest), or whether a row was created and which budget was full.
 */
const CREATE_OR_JOIN_EXCHANGE = `
  WITH existing AS (
    SELECT id, call_digest FROM exchanges
     WHERE principal = $6
       AND CASE WHEN $15::text IS NOT NULL THEN idempotency_key = $15
                ELSE $16 AND call_digest = $14 AND status = 'running' AND reattachable
                     AND created_at > now() - make_interval(secs => $17::bigint / 1000.0) END
     LIMIT 1
  ), room AS (${ROOM_SQL}), created AS (
    INSERT INTO exchanges (${EXCHANGE_COLUMNS}, traceparent, tracestate, status, call_digest, idempotency_key, reattachable)
    SELECT ${placeholders(1, EXCHANGE_VALUE_COUNT)}, $12, $13, 'running', $14, $15, $16 AND $15::text IS NULL
      FROM room WHERE room.ok AND room.principal_ok AND NOT EXISTS (SELECT 1 FROM existing)
    ON CONFLICT DO NOTHING -- any unique index: the id (never repeated here), the key, the running call
    RETURNING 1
  )
  SELECT room.ok, room.principal_ok, (SELECT count(*) FROM created) AS created,
         (SELECT id FROM existing) AS joins, (SELECT call_digest FROM existing) AS joins_digest
    FROM room`;

/**
 * An identical call's exchange that started before the window: identical calls no longer join it,
 * and its place in the unique index is free for the new one.
 */
const RELEASE_STALE = `
  UPDATE exchanges SET reattachable = false
   WHERE principal = $1 AND call_digest = $2 AND status = 'running' AND reattachable
     AND created_at <= now() - make_interval(secs => $3::bigint / 1000.0)`;

/** A race lost to a repeat that is committing: its row is read on the next try. */
const TRIES = 3;

export async function createOrJoinExchange(
  pool: Pool,
  exchange: ExchangeInput,
  workflowId: string,
  identity: CallIdentity,
  maxRunning?: number,
  maxRunningOfPrincipal?: number,
  trace?: ExchangeTraceContext,
): Promise<JoinedOrRoom> {
  const reattachable = identity.reattachWindowMs !== undefined && identity.reattachWindowMs > 0;
  for (let attempt = 1; ; attempt++) {
    const { rows } = await pool.query<{
      ok: boolean;
      principal_ok: boolean;
      created: string;
      joins: string | null;
      joins_digest: string | null;
    }>({
      name: 'create-or-join-exchange',
      text: CREATE_OR_JOIN_EXCHANGE,
      values: [
        ...openingValues(exchange, workflowId, maxRunning, maxRunningOfPrincipal, trace),
        identity.digest,
        identity.idempotencyKey ?? null,
        reattachable,
        identity.reattachWindowMs ?? 0,
      ],
    });
    const row = rows[0]!;
    if (row.joins !== null) return { joins: row.joins, sameCall: row.joins_digest === identity.digest };
    if (!row.ok) return 'full';
    if (!row.principal_ok) return 'full-for-principal';
    if (Number(row.created) === 1) return 'room';
    // A unique index refused the row: a repeat committed after this statement's snapshot, or an
    // identical call's exchange older than the window still holds the running call's place.
    if (attempt >= TRIES)
      throw new Error(`exchange ${exchange.exchangeId}: could not create or join its call's exchange`);
    if (reattachable && identity.idempotencyKey === undefined)
      await pool.query({
        name: 'release-stale-call',
        text: RELEASE_STALE,
        values: [exchange.principal, identity.digest, identity.reattachWindowMs],
      });
  }
}

export function createExchangeJoinsPg(pool: Pool): ExchangeJoinStore {
  return {
    createOrJoinExchange: (exchange, workflowId, identity, maxRunning, maxRunningOfPrincipal, trace) =>
      createOrJoinExchange(pool, exchange, workflowId, identity, maxRunning, maxRunningOfPrincipal, trace),
  };
}
