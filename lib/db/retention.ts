/**
 * Keeps the service's own records from growing without end: finished exchanges (with their rounds
 * and notifications) and ended or abandoned legacy sessions (with their calls, requests and
 * stream events) are deleted once older than the retention period, and tasks (with their
 * exchanges) once past their TTL, and quota counters once their window ended. Running exchanges
 * and sessions with a running call are never touched. Temporal keeps its own history per its namespace retention.
 */
import type { Pool } from 'pg';

export interface RetentionResult {
  exchanges: number;
  sessions: number;
}

const LOCK_ID = 0x6d6371; // one sweeper at a time across workers

export async function sweepExpiredRecords(pool: Pool, retentionMs: number): Promise<RetentionResult | undefined> {
  const client = await pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [LOCK_ID]);
    if (!rows[0]?.locked) return undefined;
    try {
      const cutoff = `${Math.floor(retentionMs / 1000)} seconds`;
      // Sessions first: a session stays while one of its calls still runs (its exchange is
      // running); a call whose exchange ended but whose client never came back for the response
      // does not keep it forever.
      const sessions = await client.query({
        text: `DELETE FROM legacy_sessions s
               WHERE COALESCE(s.closed_at, s.last_seen_at) < now() - $1::interval
                 AND NOT EXISTS (SELECT 1 FROM legacy_calls c JOIN exchanges e ON e.id = c.exchange_id
                                 WHERE c.session_id = s.id AND c.finished_at IS NULL AND e.status = 'running')`,
        values: [cutoff],
      });
      // Then exchanges, except those a surviving session's call still streams from.
      const exchanges = await client.query({
        text: `DELETE FROM exchanges x WHERE x.status <> 'running' AND x.updated_at < now() - $1::interval
                 AND NOT EXISTS (SELECT 1 FROM legacy_calls c WHERE c.exchange_id = x.id)`,
        values: [cutoff],
      });
      // Tasks are gone at their TTL (tasks/get stops reading them then): their exchanges go with
      // the first sweep after it, once they ended (the workflow ends a task still running at its TTL).
      const tasks = await client.query(
        `DELETE FROM exchanges x USING exchange_tasks t
          WHERE t.exchange_id = x.id AND t.expires_at < now() AND x.status <> 'running'`,
      );
      // A gateway decision's row is the round's record of it: kept while its exchange is, and
      // never before the API signed it (the evidence log keeps it from then on).
      await client.query({
        text: `DELETE FROM gateway_decisions g WHERE g.signed_seq IS NOT NULL AND g.recorded_at < now() - $1::interval
                 AND NOT EXISTS (SELECT 1 FROM exchanges x WHERE x.id = g.exchange_id)`,
        values: [cutoff],
      });
      // A quota counter whose window ended counts nothing any more (a take in a new window resets it):
      // the rows of principals, tenants and tools that stopped calling go here.
      await client.query('DELETE FROM quota_counters WHERE resets_at < now()');
      return { exchanges: (exchanges.rowCount ?? 0) + (tasks.rowCount ?? 0), sessions: sessions.rowCount ?? 0 };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]);
    }
  } finally {
    client.release();
  }
}
