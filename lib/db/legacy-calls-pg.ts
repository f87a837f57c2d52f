/**
 * Legacy calls in Postgres: the exchanges a session started (one per request id of the
 * session), found by request id, by exchange or by stream, and the counts the call budget reads.
 * The connection that records a call holds its delivery lease from the start (legacy-leases-pg.ts
 * keeps the lease afterwards). One part of the legacy store (legacy-store-pg.ts).
 */
import type { Pool } from 'pg';
import { DELIVERY_LEASE_MS, LEGACY_STREAM_CHANNEL, type LegacyCall, type LegacyCallStore } from './legacy-store';

/** A `legacy_calls` row, as `SELECT *` (or `RETURNING *`) reads it. */
export interface CallRow {
  session_id: string;
  request_id: string;
  request_id_json: string | number;
  exchange_id: string;
  stream_id: string;
  progress_token: string | number | null;
  detached_through: string | null;
  created_at: Date;
}

export const toCall = (r: CallRow): LegacyCall => ({
  sessionId: r.session_id,
  requestId: r.request_id,
  requestIdJson: r.request_id_json,
  exchangeId: r.exchange_id,
  streamId: r.stream_id,
  ...(r.progress_token !== null ? { progressToken: r.progress_token } : {}),
  ...(r.detached_through !== null ? { detachedThrough: Number(r.detached_through) } : {}),
  ...(r.created_at ? { startedAt: r.created_at } : {}),
});

export function createLegacyCallsPg(pool: Pool): LegacyCallStore {
  return {
    async recordCall(c, owner) {
      const { rowCount } = await pool.query({
        // The connection recording the call delivers it: it holds the lease from the start.
        text: `INSERT INTO legacy_calls (session_id, request_id, request_id_json, exchange_id, stream_id, progress_token, delivering_until, delivered_by)
               VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $8::int / 1000.0), $7) ON CONFLICT (session_id, request_id) DO NOTHING`,
        values: [
          c.sessionId,
          c.requestId,
          JSON.stringify(c.requestIdJson),
          c.exchangeId,
          c.streamId,
          c.progressToken === undefined ? null : JSON.stringify(c.progressToken),
          owner,
          DELIVERY_LEASE_MS,
        ],
      });
      if (rowCount === 1) await pool.query('SELECT pg_notify($1, $2)', [LEGACY_STREAM_CHANNEL, c.streamId]);
      return rowCount === 1;
    },

    async deleteCall(exchangeId) {
      await pool.query({ text: 'DELETE FROM legacy_calls WHERE exchange_id = $1', values: [exchangeId] });
    },

    async findCall(sessionId, requestId) {
      const { rows } = await pool.query<CallRow>({
        text: 'SELECT * FROM legacy_calls WHERE session_id = $1 AND request_id = $2',
        values: [sessionId, requestId],
      });
      return rows[0] && toCall(rows[0]);
    },

    async callOfExchange(exchangeId) {
      const { rows } = await pool.query<CallRow>({
        text: 'SELECT * FROM legacy_calls WHERE exchange_id = $1',
        values: [exchangeId],
      });
      return rows[0] && toCall(rows[0]);
    },

    async taskIdsOfSession(sessionId, afterTaskId, limit) {
      const { rows } = await pool.query<{ task_id: string }>({
        text: `SELECT t.task_id FROM exchange_tasks t JOIN legacy_calls c ON c.exchange_id = t.exchange_id
                WHERE c.session_id = $1 AND t.expires_at > now() AND ($2::text IS NULL OR t.task_id > $2)
                ORDER BY t.task_id LIMIT $3`,
        values: [sessionId, afterTaskId ?? null, limit],
      });
      return rows.map((row) => row.task_id);
    },

    async activeCalls(filter) {
      const [column, value] = 'streamId' in filter ? ['stream_id', filter.streamId] : ['session_id', filter.sessionId];
      const { rows } = await pool.query<CallRow>({
        text: `SELECT * FROM legacy_calls WHERE ${column} = $1 AND finished_at IS NULL ORDER BY created_at`,
        values: [value],
      });
      return rows.map(toCall);
    },

    async detachCall(exchangeId, deliveredThrough) {
      // The projection sets finished_at in the transaction that appends the response: under the
      // row's lock, a call without it has no response committed, nor will its stream's delivery
      // have written one.
      const { rowCount } = await pool.query({
        text: `UPDATE legacy_calls SET detached_at = coalesce(detached_at, now()),
                      detached_through = greatest(detached_through, $2)
                WHERE exchange_id = $1 AND finished_at IS NULL`,
        values: [exchangeId, deliveredThrough],
      });
      return rowCount === 1;
    },

    async countRunningCalls(sessionId) {
      const { rows } = await pool.query<{ count: string }>({
        // A call is finished when its response is produced; one whose exchange already ended but
        // whose client never came back for the response no longer runs anything, so it is not counted.
        text: `SELECT count(*) AS count FROM legacy_calls c LEFT JOIN exchanges e ON e.id = c.exchange_id
               WHERE c.session_id = $1 AND c.finished_at IS NULL AND (e.id IS NULL OR e.status = 'running')`,
        values: [sessionId],
      });
      return Number(rows[0]?.count ?? 0);
    },
  };
}
