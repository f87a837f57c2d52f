/**
 * Legacy sessions in Postgres: created at `initialize`, their negotiated handshake and log
 * level, when they were last used (retention reads it), the counts the session budgets read, and
 * their end. One part of the legacy store (legacy-store-pg.ts puts the parts together).
 */
import type { Pool } from 'pg';
import type { LegacySession, LegacySessionStore } from './legacy-store';

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

const toSession = (r: SessionRow): LegacySession => ({
  id: r.id,
  transport: r.transport,
  protocolVersion: r.protocol_version,
  clientCapabilities: r.client_capabilities,
  ...(r.client_info ? { clientInfo: r.client_info } : {}),
  ...(r.log_level ? { logLevel: r.log_level } : {}),
  principal: r.principal,
  closed: r.closed_at !== null,
});

export function createLegacySessionsPg(pool: Pool): LegacySessionStore {
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
      return rows[0] && toSession(rows[0]);
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
  };
}
