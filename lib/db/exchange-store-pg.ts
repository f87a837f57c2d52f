import type { Pool } from 'pg';
import type { RoundOutcome } from '../exchange/types';
import type { ExchangeStore, NewRound, RoundRecord } from './exchange-store';
import { OUTCOME_CHANNEL } from './exchange-store';
import { inTransaction } from './pool';

interface RoundRow {
  exchange_id: string;
  round: number;
  outcome: RoundOutcome;
  answers_digest: string | null;
  recorded_at: Date;
}

const ROUND_COLUMNS = 'exchange_id, round, outcome, answers_digest, recorded_at';

function toRecord(row: RoundRow): RoundRecord {
  return {
    exchangeId: row.exchange_id,
    round: row.round,
    outcome: row.outcome,
    answersDigest: row.answers_digest ?? undefined,
    recordedAt: row.recorded_at,
  };
}

export function createExchangeStorePg(pool: Pool): ExchangeStore {
  return {
    async readRound(exchangeId, round) {
      const { rows } = await pool.query<RoundRow>({
        text: `SELECT ${ROUND_COLUMNS} FROM exchange_rounds WHERE exchange_id = $1 AND round = $2`,
        values: [exchangeId, round],
      });
      return rows[0] && toRecord(rows[0]);
    },

    async recordRound(entry: NewRound) {
      const { exchange, round, outcome } = entry;
      return inTransaction(pool, async (client) => {
        await client.query({
          text: `INSERT INTO exchanges (id, workflow_id, era, method, target, request_digest, principal, status)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, 'running') ON CONFLICT (id) DO NOTHING`,
          values: [
            exchange.exchangeId,
            entry.workflowId,
            exchange.era,
            exchange.request.method,
            exchange.request.target,
            exchange.requestDigest,
            exchange.principal,
          ],
        });
        const inserted = await client.query<RoundRow>({
          text: `INSERT INTO exchange_rounds (exchange_id, round, answers, answers_digest, outcome_kind, outcome, duration_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)
                 ON CONFLICT (exchange_id, round) DO NOTHING
                 RETURNING ${ROUND_COLUMNS}`,
          values: [
            exchange.exchangeId,
            round,
            entry.answers === undefined ? null : JSON.stringify(entry.answers),
            entry.answersDigest ?? null,
            outcome.kind,
            JSON.stringify(outcome),
            entry.durationMs ?? null,
          ],
        });
        const row = inserted.rows[0];
        if (!row) {
          const existing = await client.query<RoundRow>({
            text: `SELECT ${ROUND_COLUMNS} FROM exchange_rounds WHERE exchange_id = $1 AND round = $2`,
            values: [exchange.exchangeId, round],
          });
          return toRecord(existing.rows[0]!);
        }
        await client.query({
          text: `UPDATE exchanges SET status = $2, rounds = GREATEST(rounds, $3),
                   asks = asks + (CASE WHEN $4 = 'ask' THEN 1 ELSE 0 END), updated_at = now()
                 WHERE id = $1`,
          values: [exchange.exchangeId, entry.status, round, outcome.kind],
        });
        // Delivered at commit; the payload names the row, listeners re-read it.
        await client.query('SELECT pg_notify($1, $2)', [OUTCOME_CHANNEL, `${exchange.exchangeId}:${round}`]);
        return toRecord(row);
      });
    },
  };
}
