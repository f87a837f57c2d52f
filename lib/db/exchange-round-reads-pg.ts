/**
 * Rounds as they are read in Postgres: one round, a round and the next (what an answer turns on),
 * an exchange's last round; and the starts of a round's handler, counted so a handler that keeps
 * failing its attempts ends its exchange (a local round asks for its record and counts its start in
 * one statement). One part of the exchange store (exchange-store-pg.ts).
 */
import type { Pool } from 'pg';
import { READ_ROUND, ROUND_COLUMNS, toRecord, type RoundRow } from './exchange-round-rows';
import type { RoundReadStore } from './exchange-store';

const READ_ROUND_AND_NEXT = `SELECT ${ROUND_COLUMNS} FROM exchange_rounds
  WHERE exchange_id = $1 AND round IN ($2::integer, $2::integer + 1)`;

/**
 * A round's record, or else one more start of its handler counted, in one statement: what a round
 * run as a local activity asks before it runs the handler.
 */
const START_ROUND = `
  WITH recorded AS (${READ_ROUND}), counted AS (
    INSERT INTO exchange_round_starts (exchange_id, round, starts)
    SELECT $1::uuid, $2::integer, 1 WHERE NOT EXISTS (SELECT 1 FROM recorded)
    ON CONFLICT (exchange_id, round) DO UPDATE SET starts = exchange_round_starts.starts + 1
    RETURNING starts
  )
  SELECT recorded.*, counted.starts FROM (SELECT 1) AS one
    LEFT JOIN recorded ON true LEFT JOIN counted ON true`;

export function createRoundReadsPg(pool: Pool): RoundReadStore {
  return {
    async readRound(exchangeId, round) {
      const { rows } = await pool.query<RoundRow>({
        name: 'read-round',
        text: READ_ROUND,
        values: [exchangeId, round],
      });
      return rows[0] && toRecord(rows[0]);
    },

    async readRoundAndNext(exchangeId, round) {
      const { rows } = await pool.query<RoundRow>({
        name: 'read-round-and-next',
        text: READ_ROUND_AND_NEXT,
        values: [exchangeId, round],
      });
      const recordOf = (n: number) => {
        const row = rows.find((r) => r.round === n);
        return row && toRecord(row);
      };
      return [recordOf(round), recordOf(round + 1)];
    },

    async lastRound(exchangeId) {
      const { rows } = await pool.query<RoundRow>({
        text: `SELECT ${ROUND_COLUMNS} FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round DESC LIMIT 1`,
        values: [exchangeId],
      });
      return rows[0] && toRecord(rows[0]);
    },

    async startRound(exchangeId, round) {
      const { rows } = await pool.query<Partial<RoundRow> & { starts: number | null }>({
        name: 'start-round',
        text: START_ROUND,
        values: [exchangeId, round],
      });
      const row = rows[0]!;
      return row.exchange_id ? { recorded: toRecord(row as RoundRow) } : { starts: row.starts! };
    },

    async countRedeliveryCheck(exchangeId, round, max) {
      const { rowCount } = await pool.query({
        text: `UPDATE exchange_rounds SET redelivery_checks = redelivery_checks + 1
               WHERE exchange_id = $1 AND round = $2 AND redelivery_checks < $3`,
        values: [exchangeId, round, max],
      });
      return rowCount === 1;
    },

    async countHandlerStart(exchangeId, round) {
      const { rows } = await pool.query<{ starts: number }>({
        text: `INSERT INTO exchange_round_starts (exchange_id, round, starts) VALUES ($1, $2, 1)
               ON CONFLICT (exchange_id, round) DO UPDATE SET starts = exchange_round_starts.starts + 1
               RETURNING starts`,
        values: [exchangeId, round],
      });
      return rows[0]!.starts;
    },
  };
}
