/**
 * The quota counters in Postgres (migrations/0030): a call is taken from every counter it counts
 * against in one statement, all or none, by the database's clock, so every API replica shares the
 * same counts and no concurrent take passes a limit. Nothing is kept in the process.
 */
import type { Pool } from 'pg';
import type { QuotaCounter } from '../quotas/quota-counters';

/** What one take did: every counter took the call, or `refused` names the first one that was full. */
export type QuotaTake =
  | { taken: true; takenAt: Date }
  | { taken: false; refused: QuotaCounter; calls: number; windowStart: Date; takenAt: Date };

interface TakeRow {
  refused: number | null;
  calls: number | null;
  window_start: Date | null;
  taken_at: Date;
}

export interface QuotaCounterStore {
  take(counters: readonly QuotaCounter[]): Promise<QuotaTake>;
  /** Gives back a call taken at `takenAt` whose exchange did not start, in the counters whose window it still is. */
  giveBack(counters: readonly QuotaCounter[], takenAt: Date): Promise<void>;
}

export function createQuotaCounterStore(pool: Pool): QuotaCounterStore {
  return {
    async take(counters) {
      const { rows } = await pool.query<TakeRow>({
        text: 'SELECT refused, calls, window_start, taken_at FROM quota_take($1::text[], $2::integer[], $3::integer[])',
        values: [counters.map((c) => c.key), counters.map((c) => c.windowS), counters.map((c) => c.limit)],
      });
      const row = rows[0]!;
      if (row.refused === null) return { taken: true, takenAt: row.taken_at };
      return {
        taken: false,
        refused: counters[row.refused - 1]!,
        calls: row.calls!,
        windowStart: row.window_start!,
        takenAt: row.taken_at,
      };
    },

    async giveBack(counters, takenAt) {
      await pool.query({
        text: 'SELECT quota_give_back($1::text[], $2::integer[], $3::timestamptz)',
        values: [counters.map((c) => c.key), counters.map((c) => c.windowS), takenAt],
      });
    },
  };
}
