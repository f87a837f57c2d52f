import type { Pool, PoolClient } from 'pg';
import { exchangeStatusOf } from '../exchange/exchange-status';
import type { ExchangeEvent, ExchangeInput, RoundOutcome } from '../exchange/types';
import type { ExchangeStore, NewRound, RoundRecord } from './exchange-store';
import { EVENT_CHANNEL, OUTCOME_CHANNEL } from './exchange-store';
import { projectEvent, projectRound } from './legacy-projection';
import { inTransaction } from './pool';

interface RoundRow {
  exchange_id: string;
  round: number;
  outcome: RoundOutcome;
  answers_digest: string | null;
  recorded_at: Date;
  deadline_at: Date | null;
}

const ROUND_COLUMNS = 'exchange_id, round, outcome, answers_digest, recorded_at, deadline_at';

function toRecord(row: RoundRow): RoundRecord {
  return {
    exchangeId: row.exchange_id,
    round: row.round,
    outcome: row.outcome,
    answersDigest: row.answers_digest ?? undefined,
    recordedAt: row.recorded_at,
    ...(row.deadline_at ? { deadlineAt: row.deadline_at } : {}),
  };
}

/** Creates the exchange row on its first write, whichever write that is. */
async function ensureExchange(client: Pool | PoolClient, exchange: ExchangeInput, workflowId: string): Promise<void> {
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

type NewRoundRow = Omit<NewRound, 'exchange' | 'workflowId'> & { exchangeId: string };

/**
 * Inserts a round unless it is recorded already (first write wins, and what stands is returned),
 * then moves the exchange to the outcome's status (never out of a final one) and announces it.
 */
/** `projection`: the cap of the stream to project into, or undefined when the exchange has no handshake-era call (modern era). */
async function insertRound(
  client: PoolClient,
  entry: NewRoundRow,
  projection: { legacyStreamMaxEvents: number } | undefined,
): Promise<RoundRecord> {
  const { exchangeId, round, outcome } = entry;
  const inserted = await client.query<RoundRow>({
    text: `INSERT INTO exchange_rounds (exchange_id, round, answers, answers_digest, outcome_kind, outcome, duration_ms, deadline_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (exchange_id, round) DO NOTHING
           RETURNING ${ROUND_COLUMNS}`,
    values: [
      exchangeId,
      round,
      entry.answers === undefined ? null : JSON.stringify(entry.answers),
      entry.answersDigest ?? null,
      outcome.kind,
      JSON.stringify(outcome),
      entry.durationMs ?? null,
      entry.deadlineAt ?? null,
    ],
  });
  const row = inserted.rows[0];
  if (!row) {
    const existing = await client.query<RoundRow>({
      text: `SELECT ${ROUND_COLUMNS} FROM exchange_rounds WHERE exchange_id = $1 AND round = $2`,
      values: [exchangeId, round],
    });
    return toRecord(existing.rows[0]!);
  }
  const status = exchangeStatusOf({
    kind: outcome.kind,
    errorCode: outcome.kind === 'error' ? outcome.error.code : undefined,
  });
  await client.query({
    text: `UPDATE exchanges SET status = CASE WHEN status = 'running' THEN $2 ELSE status END,
             rounds = GREATEST(rounds, $3), asks = asks + (CASE WHEN $4 = 'ask' THEN 1 ELSE 0 END), updated_at = now()
           WHERE id = $1`,
    values: [exchangeId, status, round, outcome.kind],
  });
  // A handshake-era call's stream gets what this round means to it, in this same transaction.
  if (projection) await projectRound(client, { exchangeId, round, outcome }, projection.legacyStreamMaxEvents);
  // Delivered at commit; the payload names the row, listeners re-read it.
  await client.query('SELECT pg_notify($1, $2)', [OUTCOME_CHANNEL, `${exchangeId}:${round}`]);
  return { ...toRecord(row), recordedNow: true };
}

/**
 * A modern exchange's round in one statement (one round trip, instead of a transaction's six): the
 * round inserted unless it stands, the exchange row created or moved to the outcome's status (never
 * out of a final one), and the announcement, delivered at commit. No row back when the round was
 * recorded already.
 */
const RECORD_MODERN_ROUND = `
  WITH inserted AS (
    INSERT INTO exchange_rounds (exchange_id, round, answers, answers_digest, outcome_kind, outcome, duration_ms, deadline_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    ON CONFLICT (exchange_id, round) DO NOTHING
    RETURNING ${ROUND_COLUMNS}
  ), moved AS (
    INSERT INTO exchanges (id, workflow_id, era, method, target, request_digest, principal, status, rounds, asks)
    SELECT $1, $9, $10, $11, $12, $13, $14, $15, $2, CASE WHEN $5 = 'ask' THEN 1 ELSE 0 END FROM inserted
    ON CONFLICT (id) DO UPDATE SET
      status = CASE WHEN exchanges.status = 'running' THEN EXCLUDED.status ELSE exchanges.status END,
      rounds = GREATEST(exchanges.rounds, EXCLUDED.rounds),
      asks = exchanges.asks + EXCLUDED.asks,
      updated_at = now()
    RETURNING 1
  ), announced AS (
    SELECT pg_notify($16, $1::text || ':' || $2::text) FROM inserted
  )
  SELECT inserted.*, (SELECT count(*) FROM moved) AS moved, (SELECT count(*) FROM announced) AS announced
  FROM inserted`;

/**
 * A round's record, or else one more start of its handler counted, in one statement: what a round
 * run as a local activity asks before it runs the handler.
 */
const START_ROUND = `
  WITH recorded AS (
    SELECT ${ROUND_COLUMNS} FROM exchange_rounds WHERE exchange_id = $1 AND round = $2
  ), counted AS (
    INSERT INTO exchange_round_starts (exchange_id, round, starts)
    SELECT $1::uuid, $2::integer, 1 WHERE NOT EXISTS (SELECT 1 FROM recorded)
    ON CONFLICT (exchange_id, round) DO UPDATE SET starts = exchange_round_starts.starts + 1
    RETURNING starts
  )
  SELECT recorded.*, counted.starts FROM (SELECT 1) AS one
    LEFT JOIN recorded ON true LEFT JOIN counted ON true`;

/** `legacyStreamMaxEvents`: the cap of the handshake-era streams this store projects into. */
export function createExchangeStorePg(pool: Pool, options: { legacyStreamMaxEvents?: number } = {}): ExchangeStore {
  const legacyStreamMaxEvents = options.legacyStreamMaxEvents ?? 1000;
  return {
    createExchange: (exchange, workflowId) => ensureExchange(pool, exchange, workflowId),

    async forgetUnstarted(exchangeId) {
      await pool.query({
        text: 'DELETE FROM exchanges WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM exchange_rounds WHERE exchange_id = $1)',
        values: [exchangeId],
      });
    },

    async readRound(exchangeId, round) {
      const { rows } = await pool.query<RoundRow>({
        text: `SELECT ${ROUND_COLUMNS} FROM exchange_rounds WHERE exchange_id = $1 AND round = $2`,
        values: [exchangeId, round],
      });
      return rows[0] && toRecord(rows[0]);
    },

    async lastRound(exchangeId) {
      const { rows } = await pool.query<RoundRow>({
        text: `SELECT ${ROUND_COLUMNS} FROM exchange_rounds WHERE exchange_id = $1 ORDER BY round DESC LIMIT 1`,
        values: [exchangeId],
      });
      return rows[0] && toRecord(rows[0]);
    },

    async countRunning() {
      const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM exchanges WHERE status = 'running'");
      return Number(rows[0]?.n ?? 0);
    },

    async countRunningFor(principal) {
      const { rows } = await pool.query<{ n: string; mine: string }>({
        text: `SELECT count(*) AS n, count(*) FILTER (WHERE principal = $1) AS mine FROM exchanges WHERE status = 'running'`,
        values: [principal],
      });
      return { all: Number(rows[0]?.n ?? 0), principal: Number(rows[0]?.mine ?? 0) };
    },

    async idleRunning(idleMs, limit) {
      const { rows } = await pool.query<{ id: string }>({
        text: `SELECT id FROM exchanges WHERE status = 'running' AND updated_at < now() - make_interval(secs => $1)
               ORDER BY updated_at LIMIT $2`,
        values: [idleMs / 1000, limit],
      });
      return rows.map((row) => row.id);
    },

    async startRound(exchangeId, round) {
      const { rows } = await pool.query<Partial<RoundRow> & { starts: number | null }>({
        text: START_ROUND,
        values: [exchangeId, round],
      });
      const row = rows[0]!;
      return row.exchange_id ? { recorded: toRecord(row as RoundRow) } : { starts: row.starts! };
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

    async appendEvent(exchange, workflowId, round, event) {
      await inTransaction(pool, async (client) => {
        await ensureExchange(client, exchange, workflowId);
        const { rows } = await client.query<{ id: string }>({
          text: 'INSERT INTO exchange_events (exchange_id, round, kind, payload) VALUES ($1, $2, $3, $4) RETURNING id',
          values: [exchange.exchangeId, round, event.kind, JSON.stringify(event)],
        });
        if (exchange.era === 'legacy')
          await projectEvent(client, exchange.exchangeId, Number(rows[0]!.id), event, legacyStreamMaxEvents);
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

    async recordRound({ exchange, workflowId, ...entry }: NewRound) {
      if (exchange.era === 'modern') {
        const { outcome } = entry;
        const { rows } = await pool.query<RoundRow>({
          text: RECORD_MODERN_ROUND,
          values: [
            exchange.exchangeId,
            entry.round,
            entry.answers === undefined ? null : JSON.stringify(entry.answers),
            entry.answersDigest ?? null,
            outcome.kind,
            JSON.stringify(outcome),
            entry.durationMs ?? null,
            entry.deadlineAt ?? null,
            workflowId,
            exchange.era,
            exchange.request.method,
            exchange.request.target,
            exchange.requestDigest,
            exchange.principal,
            exchangeStatusOf({
              kind: outcome.kind,
              errorCode: outcome.kind === 'error' ? outcome.error.code : undefined,
            }),
            OUTCOME_CHANNEL,
          ],
        });
        if (rows[0]) return { ...toRecord(rows[0]), recordedNow: true };
        // Recorded already (first write wins): what stands, read with a snapshot that sees it.
        const existing = await pool.query<RoundRow>({
          text: `SELECT ${ROUND_COLUMNS} FROM exchange_rounds WHERE exchange_id = $1 AND round = $2`,
          values: [exchange.exchangeId, entry.round],
        });
        return toRecord(existing.rows[0]!);
      }
      return inTransaction(pool, async (client) => {
        await ensureExchange(client, exchange, workflowId);
        // A handshake-era call's stream gets what this round means to it, in the same transaction.
        return insertRound(client, { ...entry, exchangeId: exchange.exchangeId }, { legacyStreamMaxEvents });
      });
    },

    // The API records endings without the exchange's input at hand: the projection looks for a call itself.
    recordEnding: (entry) => inTransaction(pool, (client) => insertRound(client, entry, { legacyStreamMaxEvents })),
  };
}
