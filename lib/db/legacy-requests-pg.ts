/**
 * Legacy server-to-client requests in Postgres, as the API sees them: found by id, answered
 * once (and reopened when the answer could not reach the exchange), a repeated answer counted, the
 * answers a round already took, and a session's open requests for replay after a reconnect. The
 * worker opens and withdraws them, in the transaction that records a round (legacy-projection.ts).
 * One part of the legacy store (legacy-store-pg.ts).
 */
import type { Pool } from 'pg';
import type { LegacyRequestStore, OpenRequest } from './legacy-store';

interface RequestRow {
  id: string;
  session_id: string;
  exchange_id: string;
  round: number;
  key: string;
  message: Record<string, unknown>;
}

const toRequest = (r: RequestRow): OpenRequest => ({
  id: r.id,
  sessionId: r.session_id,
  exchangeId: r.exchange_id,
  round: r.round,
  key: r.key,
  message: r.message,
});

/** A session's open requests with the event that first carried each (indexed: 0013). */
export const OPEN_REQUESTS_OF_SESSION_SQL = `
  SELECT r.*, e.id AS event_id FROM legacy_open_requests r
  LEFT JOIN legacy_stream_events e ON e.server_request_id = r.id
  WHERE r.session_id = $1 AND r.status = 'open' ORDER BY r.created_at`;

/** `maxRepeatedAnswers`: repeats of one answer that are signalled again. */
export function createLegacyRequestsPg(pool: Pool, maxRepeatedAnswers: number): LegacyRequestStore {
  return {
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
  };
}
