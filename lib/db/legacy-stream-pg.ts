/**
 * Legacy streams in Postgres (the SSE event log): messages appended once each, in commit
 * order, each stream pruned to its cap (never its response nor a request still open) with the
 * dropped range noted so a Last-Event-ID inside it still resumes the stream; pages of a stream for
 * delivery and replay. `appendStreamMessage` is also how the projection writes, in the transaction
 * that records a round (legacy-projection.ts). One part of the legacy store (legacy-store-pg.ts).
 */
import type { Pool, PoolClient } from 'pg';
import {
  LEGACY_STREAM_CHANNEL,
  type LegacyStoreLimits,
  type LegacyStreamStore,
  type NewStreamMessage,
} from './legacy-store';
import { inTransaction } from './pool';

/**
 * Drops a stream's events older than its newest `maxEvents`, but never its final message (a call's
 * response) nor a request still open (a GET re-delivers those by their first event id), and notes
 * the range of ids dropped so a Last-Event-ID inside it still resumes this stream.
 */
const PRUNE_STREAM_SQL = `
  WITH cutoff AS (
    SELECT id FROM legacy_stream_events WHERE stream_id = $1 ORDER BY id DESC OFFSET $2 LIMIT 1
  ), dropped AS (
    DELETE FROM legacy_stream_events e USING cutoff
    WHERE e.stream_id = $1 AND e.id <= cutoff.id AND NOT e.final
      AND NOT (e.server_request_id IS NOT NULL AND EXISTS (
        SELECT 1 FROM legacy_open_requests r WHERE r.id = e.server_request_id AND r.status = 'open'))
    RETURNING e.id, e.session_id
  )
  INSERT INTO legacy_stream_pruning (stream_id, session_id, first_dropped_id, last_dropped_id)
  SELECT $1, min(session_id), min(id), max(id) FROM dropped HAVING count(*) > 0
  ON CONFLICT (stream_id) DO UPDATE SET
    first_dropped_id = least(legacy_stream_pruning.first_dropped_id, excluded.first_dropped_id),
    last_dropped_id = greatest(legacy_stream_pruning.last_dropped_id, excluded.last_dropped_id)`;

/**
 * Appends in the caller's transaction. The stream's writers take its lock *before* inserting, so
 * event ids are assigned and committed in the same order: a reader that has seen id N never finds
 * an id below N committed later (which it would skip). Pruning under the same lock keeps the cap.
 */
export async function appendStreamMessage(client: PoolClient, m: NewStreamMessage, maxEvents: number): Promise<void> {
  await client.query({
    text: `SELECT pg_advisory_xact_lock(hashtext('legacy_stream_events'), hashtext($1))`,
    values: [m.streamId],
  });
  const { rowCount } = await client.query({
    text: `INSERT INTO legacy_stream_events (session_id, stream_id, message_key, message, final, server_request_id)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (stream_id, message_key) DO NOTHING`,
    values: [
      m.sessionId,
      m.streamId,
      m.messageKey,
      JSON.stringify(m.message),
      m.final ?? false,
      m.serverRequestId ?? null,
    ],
  });
  if (rowCount === 1) await client.query({ text: PRUNE_STREAM_SQL, values: [m.streamId, maxEvents] });
  await client.query('SELECT pg_notify($1, $2)', [LEGACY_STREAM_CHANNEL, m.streamId]);
}

export function createLegacyStreamPg(
  pool: Pool,
  limits: Pick<LegacyStoreLimits, 'legacyStreamMaxEvents' | 'legacyReplayPageSize'>,
): LegacyStreamStore {
  const { legacyStreamMaxEvents, legacyReplayPageSize } = limits;
  return {
    appendMessage: (message) =>
      inTransaction(pool, (client) => appendStreamMessage(client, message, legacyStreamMaxEvents)),

    async readStream(streamId, afterId) {
      const { rows } = await pool.query<{
        id: string;
        message_key: string;
        message: Record<string, unknown>;
        final: boolean;
      }>({
        text: 'SELECT id, message_key, message, final FROM legacy_stream_events WHERE stream_id = $1 AND id > $2 ORDER BY id LIMIT $3',
        values: [streamId, afterId, legacyReplayPageSize],
      });
      return rows.map((r) => ({ id: Number(r.id), messageKey: r.message_key, message: r.message, final: r.final }));
    },

    async lastEventId(streamId) {
      const { rows } = await pool.query<{ max: string | null }>({
        text: 'SELECT max(id) AS max FROM legacy_stream_events WHERE stream_id = $1',
        values: [streamId],
      });
      return Number(rows[0]?.max ?? 0);
    },

    async streamOfEvent(sessionId, eventId) {
      const { rows } = await pool.query<{ stream_id: string }>({
        // A dropped event still names its stream through the range its stream dropped (0009).
        text: `SELECT stream_id FROM (
                 SELECT stream_id, 0 AS rank FROM legacy_stream_events WHERE id = $1 AND session_id = $2
                 UNION ALL
                 SELECT stream_id, 1 FROM legacy_stream_pruning
                 WHERE session_id = $2 AND $1 BETWEEN first_dropped_id AND last_dropped_id
               ) found ORDER BY rank LIMIT 1`,
        values: [eventId, sessionId],
      });
      return rows[0]?.stream_id;
    },
  };
}
