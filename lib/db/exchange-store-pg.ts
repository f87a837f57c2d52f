import type { Pool, PoolClient } from 'pg';
import type { ExchangeEvent, ExchangeInput, RoundOutcome } from '../exchange/types';
import type { ExchangeStore, NewRound, RoundRecord } from './exchange-store';
import { EVENT_CHANNEL, OUTCOME_CHANNEL } from './exchange-store';
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

/** Creates the exchange row on its first write, whichever write that is. */
async function ensureExchange(client: PoolClient, exchange: ExchangeInput, workflowId: string): Promise<void> {
  await client.query({
    text: `INSERT INTO exchanges (id, workflow_id, era, method, target, request_digest, principal, status)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'running') ON CONFLICT (id) DO NOTHING`,
    values: [
      exchange.exchangeId,
      workflowId,
      exchange.era,
      exchange.request.method,
      exchange.request.target,
      exchange.requestDigest,
      exchange.principal,
    ],
  });
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

    async appendEvent(exchange, workflowId, round, event) {
      await inTransaction(pool, async (client) => {
        await ensureExchange(client, exchange, workflowId);
        await client.query({
          text: 'INSERT INTO exchange_events (exchange_id, round, kind, payload) VALUES ($1, $2, $3, $4)',
          values: [exchange.exchangeId, round, event.kind, JSON.stringify(event)],
        });
        await client.query('SELECT pg_notify($1, $2)', [EVENT_CHANNEL, `${exchange.exchangeId}:${round}`]);
      });
    },

    async readEvents(exchangeId, round, afterId) {
      const { rows } = await pool.query<{ id: string; payload: ExchangeEvent }>({
        text: 'SELECT id, payload FROM exchange_events WHERE exchange_id = $1 AND round = $2 AND id > $3 ORDER BY id',
        values: [exchangeId, round, afterId],
      });
      return rows.map((row) => ({ id: Number(row.id), event: row.payload }));
    },

    async recordRound(entry: NewRound) {
      const { exchange, round, outcome } = entry;
      return inTransaction(pool, async (client) => {
        await ensureExchange(client, exchange, entry.workflowId);
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
