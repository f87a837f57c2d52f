/**
 * Which running exchanges the stuck workflow sweep asks Temporal about next (migration 0031): those
 * whose row has not moved for a while, each at most once per interval. A claim moves the exchange's
 * next check forward in the statement that picks it, skipping rows another replica is claiming, so
 * API replicas share the sweep without asking about one exchange twice at once.
 */
import type { Pool } from 'pg';

export interface StuckChecks {
  /**
   * Up to `limit` running exchanges nothing was recorded for since `idleMs` ago and that are due
   * for a check, oldest check first; each is not due again for `againMs`.
   */
  claim(idleMs: number, againMs: number, limit: number): Promise<string[]>;
  /** Makes the exchange due again at `at` (epoch ms): when its failures will have lasted long enough. */
  dueAt(exchangeId: string, at: number): Promise<void>;
}

const CLAIM = `
  UPDATE exchanges SET stuck_check_at = now() + make_interval(secs => $2)
   WHERE id IN (
     SELECT id FROM exchanges
      WHERE status = 'running' AND (stuck_check_at IS NULL OR stuck_check_at <= now())
        AND updated_at < now() - make_interval(secs => $1)
      ORDER BY stuck_check_at NULLS FIRST, updated_at
      LIMIT $3
      FOR UPDATE SKIP LOCKED)
  RETURNING id`;

export function createStuckChecksPg(pool: Pool): StuckChecks {
  return {
    async claim(idleMs, againMs, limit) {
      const { rows } = await pool.query<{ id: string }>({
        name: 'claim-stuck-checks',
        text: CLAIM,
        values: [idleMs / 1000, againMs / 1000, limit],
      });
      return rows.map((row) => row.id);
    },

    async dueAt(exchangeId, at) {
      await pool.query({
        name: 'stuck-check-due-at',
        text: `UPDATE exchanges SET stuck_check_at = to_timestamp($2::double precision / 1000) WHERE id = $1`,
        values: [exchangeId, at],
      });
    },
  };
}
