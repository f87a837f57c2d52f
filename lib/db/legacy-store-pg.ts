import type { Pool, PoolClient } from 'pg';
import { inTransaction } from './pool';
import {
  DELIVERY_FREED_CHANNEL,
  DELIVERY_LEASE_MS,
  DELIVERY_TAKEN_CHANNEL,
  LEGACY_STREAM_CHANNEL,
  type LegacyCall,
  type LegacySession,
  type LegacyStore,
  type LegacyStoreLimits,
  type NewStreamMessage,
  type OpenRequest,
} from './legacy-store';

interface SessionRow {
  id: string;
  transport: LegacySession['transport'];
  protocol_version: string;
  client_capabilities: Record<string, unknown>;
  client_info: Record<string, unknown> | null;
  log_level: string | null;
  principal: string;
  closed_at: Date | null;
}

interface CallRow {
  session_id: string;
  request_id: string;
  request_id_json: string | number;
  exchange_id: string;
  stream_id: string;
  progress_token: string | number | null;
}

interface RequestRow {
  id: string;
  session_id: string;
  exchange_id: string;
  round: number;
  key: string;
  message: Record<string, unknown>;
}

const toCall = (r: CallRow): LegacyCall => ({
  sessionId: r.session_id,
  requestId: r.request_id,
  requestIdJson: r.request_id_json,
  exchangeId: r.exchange_id,
  streamId: r.stream_id,
  ...(r.progress_token !== null ? { progressToken: r.progress_token } : {}),
});

const toRequest = (r: RequestRow): OpenRequest => ({
  id: r.id,
  sessionId: r.session_id,
  exchangeId: r.exchange_id,
  round: r.round,
  key: r.key,
  message: r.message,
});

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

/** A session's open requests with the event that first carried each (indexed: 0013). */
export const OPEN_REQUESTS_OF_SESSION_SQL = `
  SELECT r.*, e.id AS event_id FROM legacy_open_requests r
  LEFT JOIN legacy_stream_events e ON e.server_request_id = r.id
  WHERE r.session_id = $1 AND r.status = 'open' ORDER BY r.created_at`;

export function createLegacyStorePg(pool: Pool, limits: LegacyStoreLimits): LegacyStore {
  const { legacyStreamMaxEvents, legacyReplayPageSize, maxRepeatedAnswers } = limits;
  return {
    async createSession(s) {
      await pool.query({
        text: `INSERT INTO legacy_sessions (id, transport, protocol_version, client_capabilities, client_info, log_level, principal)
               VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        values: [
          s.id,
          s.transport,
          s.protocolVersion,
          JSON.stringify(s.clientCapabilities),
          s.clientInfo ? JSON.stringify(s.clientInfo) : null,
          s.logLevel ?? null,
          s.principal,
        ],
      });
    },

    async updateSessionHandshake(id, h) {
      await pool.query({
        text: `UPDATE legacy_sessions SET protocol_version = $2, client_capabilities = $3, client_info = $4, last_seen_at = now() WHERE id = $1`,
        values: [
          id,
          h.protocolVersion,
          JSON.stringify(h.clientCapabilities),
          h.clientInfo ? JSON.stringify(h.clientInfo) : null,
        ],
      });
    },

    async getSession(id) {
      const { rows } = await pool.query<SessionRow>({
        text: 'SELECT * FROM legacy_sessions WHERE id = $1',
        values: [id],
      });
      const r = rows[0];
      if (!r) return undefined;
      return {
        id: r.id,
        transport: r.transport,
        protocolVersion: r.protocol_version,
        clientCapabilities: r.client_capabilities,
        ...(r.client_info ? { clientInfo: r.client_info } : {}),
        ...(r.log_level ? { logLevel: r.log_level } : {}),
        principal: r.principal,
        closed: r.closed_at !== null,
      };
    },

    async setLogLevel(id, level) {
      await pool.query({
        text: 'UPDATE legacy_sessions SET log_level = $2, last_seen_at = now() WHERE id = $1',
        values: [id, level],
      });
    },

    async touchSession(id) {
      await pool.query({
        text: `UPDATE legacy_sessions SET last_seen_at = now() WHERE id = $1 AND last_seen_at < now() - interval '1 minute'`,
        values: [id],
      });
    },

    async countOpenSessions() {
      const { rows } = await pool.query<{ count: string }>(
        'SELECT count(*) AS count FROM legacy_sessions WHERE closed_at IS NULL',
      );
      return Number(rows[0]?.count ?? 0);
    },

    async countOpenSessionsFor(principal) {
      const { rows } = await pool.query<{ count: string; mine: string }>({
        text: `SELECT count(*) AS count, count(*) FILTER (WHERE principal = $1) AS mine
                 FROM legacy_sessions WHERE closed_at IS NULL`,
        values: [principal],
      });
      return { all: Number(rows[0]?.count ?? 0), principal: Number(rows[0]?.mine ?? 0) };
    },

    async closeSession(id) {
      const { rowCount } = await pool.query({
        text: 'UPDATE legacy_sessions SET closed_at = now() WHERE id = $1 AND closed_at IS NULL',
        values: [id],
      });
      return rowCount === 1;
    },

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

    async claimUndelivered(sessionId, owner, forMs) {
      const { rows } = await pool.query<CallRow>({
        text: `WITH claimed AS (
                 UPDATE legacy_calls SET delivering_until = now() + make_interval(secs => $3::int / 1000.0), delivered_by = $2
                  WHERE session_id = $1 AND finished_at IS NULL AND (delivering_until IS NULL OR delivering_until < now())
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
                WHERE session_id = $1 AND finished_at IS NULL AND delivering_until IS NOT NULL
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

    async countRepeat(id) {
      const { rowCount } = await pool.query({
        text: `UPDATE legacy_open_requests SET repeats = repeats + 1 WHERE id = $1 AND status = 'answered' AND repeats < $2`,
        values: [id, maxRepeatedAnswers],
      });
      return rowCount === 1;
    },

    async answersOfRound(exchangeId, round) {
      const { rows } = await pool.query<{ key: string; response: unknown }>({
        text: `SELECT key, response FROM legacy_open_requests WHERE exchange_id = $1 AND round = $2 AND status = 'answered'`,
        values: [exchangeId, round],
      });
      return rows;
    },

    async reopenRequest(id) {
      await pool.query({
        text: `UPDATE legacy_open_requests SET status = 'open', response = NULL, settled_at = NULL WHERE id = $1 AND status = 'answered'`,
        values: [id],
      });
    },

    async findRequest(sessionId, id) {
      const { rows } = await pool.query<RequestRow & { status: 'open' | 'answered' | 'withdrawn'; response: unknown }>({
        text: `SELECT * FROM legacy_open_requests WHERE id = $1 AND session_id = $2`,
        values: [id, sessionId],
      });
      const row = rows[0];
      return (
        row && { ...toRequest(row), status: row.status, ...(row.response !== null ? { response: row.response } : {}) }
      );
    },

    async answerRequest(id, response) {
      const { rowCount } = await pool.query({
        text: `UPDATE legacy_open_requests SET status = 'answered', response = $2, settled_at = now()
               WHERE id = $1 AND status = 'open'`,
        values: [id, JSON.stringify(response ?? null)],
      });
      return rowCount === 1;
    },

    async openRequestsOfSession(sessionId) {
      const { rows } = await pool.query<RequestRow & { event_id: string | null }>({
        text: OPEN_REQUESTS_OF_SESSION_SQL,
        values: [sessionId],
      });
      return rows.map((r) => ({ ...toRequest(r), ...(r.event_id ? { eventId: Number(r.event_id) } : {}) }));
    },

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
