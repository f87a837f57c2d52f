/**
 * Delivery leases on legacy calls in Postgres: which connection delivers a running call's
 * messages, and until when. A GET stream claims the calls nobody delivers (a detached one is
 * awaited instead: legacy-store.ts `detachCall`), the holder renews its
 * hold and gives it up when it stops, and a take-over or a release is announced so the other
 * connection acts at once (DELIVERY_TAKEN_CHANNEL, DELIVERY_FREED_CHANNEL). One part of the legacy
 * store (legacy-store-pg.ts).
 */
import type { Pool } from 'pg';
import { toCall, type CallRow } from './legacy-calls-pg';
import { DELIVERY_FREED_CHANNEL, DELIVERY_TAKEN_CHANNEL, type LegacyLeaseStore } from './legacy-store';

export function createLegacyLeasesPg(pool: Pool): LegacyLeaseStore {
  return {
    async claimUndelivered(sessionId, owner, forMs) {
      const { rows } = await pool.query<CallRow>({
        text: `WITH claimed AS (
                 UPDATE legacy_calls SET delivering_until = now() + make_interval(secs => $3::int / 1000.0), delivered_by = $2
                  WHERE session_id = $1 AND finished_at IS NULL AND detached_at IS NULL
                    AND (delivering_until IS NULL OR delivering_until < now())
                  RETURNING *
               )
               SELECT claimed.*, pg_notify($4, exchange_id::text) FROM claimed`,
        values: [sessionId, owner, forMs, DELIVERY_TAKEN_CHANNEL],
      });
      return rows.map(toCall);
    },

    async nextLeaseLapse(sessionId, owner) {
      const { rows } = await pool.query<{ ms: number | null }>({
        text: `SELECT greatest(0, extract(epoch FROM min(delivering_until) - now()) * 1000)::float8 AS ms
                 FROM legacy_calls
                WHERE session_id = $1 AND finished_at IS NULL AND detached_at IS NULL AND delivering_until IS NOT NULL
                  AND delivered_by IS DISTINCT FROM $2`,
        values: [sessionId, owner],
      });
      const ms = rows[0]?.ms;
      return ms === null || ms === undefined ? undefined : Number(ms);
    },

    async renewLease(exchangeId, owner, forMs, force = false) {
      const { rowCount } = await pool.query({
        // Only the holder renews: a renewal still on its way after the lease was given up (or taken
        // over) must not take it back, or a GET could not claim the call until it lapsed again.
        // Taking it over from another connection tells that one (which then stops delivering); the
        // CTEs see the row as it was before the update.
        text: `WITH previous AS (
                 SELECT delivered_by FROM legacy_calls WHERE exchange_id = $1
               ), renewed AS (
                 UPDATE legacy_calls SET delivering_until = now() + make_interval(secs => $3::int / 1000.0), delivered_by = $2
                  WHERE exchange_id = $1 AND ($4 OR delivered_by = $2) RETURNING exchange_id
               )
               SELECT CASE WHEN previous.delivered_by <> $2 THEN pg_notify($5, renewed.exchange_id::text) END
                 FROM renewed, previous`,
        values: [exchangeId, owner, forMs, force, DELIVERY_TAKEN_CHANNEL],
      });
      return rowCount === 1;
    },

    async releaseLease(exchangeId, owner) {
      await pool.query({
        text: `WITH released AS (
                 UPDATE legacy_calls SET delivering_until = NULL, delivered_by = NULL
                  WHERE exchange_id = $1 AND delivered_by = $2 RETURNING session_id
               )
               SELECT pg_notify($3, session_id) FROM released`,
        values: [exchangeId, owner, DELIVERY_FREED_CHANNEL],
      });
    },
  };
}
