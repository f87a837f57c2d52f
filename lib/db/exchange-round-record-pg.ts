/**
 * A round's record in Postgres: the round inserted unless it stands (first write wins, and what
 * stands is returned), announced on OUTCOME_CHANNEL at commit, its exchange moved to the outcome's
 * status (never out of a final one), and for a handshake-era call its stream's messages written in
 * the same transaction (legacy-projection.ts). A modern round is all of that in one statement. One
 * part of the exchange store (exchange-store-pg.ts).
 */
import type { Pool, PoolClient } from 'pg';
import { exchangeStatusOf } from '../exchange/exchange-status';
import type { RoundOutcome } from '../exchange/types';
import { placeholders, READ_ROUND, ROUND_COLUMNS, toRecord, type RoundRow } from './exchange-round-rows';
import { createExchange, EXCHANGE_COLUMNS, exchangeValues } from './exchange-rows-pg';
import type { NewRound, RoundRecord, RoundRecordStore } from './exchange-store';
import { OUTCOME_CHANNEL } from './exchange-store';
import { projectRound } from './legacy-projection';
import { inTransaction } from './pool';

type NewRoundRow = Omit<NewRound, 'exchange' | 'workflowId'> & { exchangeId: string };

/**
 * A round's row as it is recorded: the columns, and their values in order (`$1` the exchange, `$2`
 * the round, `$5` the outcome's kind).
 */
const NEW_ROUND_COLUMNS =
  'exchange_id, round, answers, answers_digest, outcome_kind, outcome, duration_ms, deadline_at';
const newRoundValues = (entry: NewRoundRow) => [
  entry.exchangeId,
  entry.round,
  entry.answers === undefined ? null : JSON.stringify(entry.answers),
  entry.answersDigest ?? null,
  entry.outcome.kind,
  JSON.stringify(entry.outcome),
  entry.durationMs ?? null,
  entry.deadlineAt ?? null,
];

/** Inserts a round unless it is recorded already (first write wins): the row back only when this wrote it. */
const INSERT_ROUND = `INSERT INTO exchange_rounds (${NEW_ROUND_COLUMNS}) VALUES (${placeholders(1, 8)})
  ON CONFLICT (exchange_id, round) DO NOTHING
  RETURNING ${ROUND_COLUMNS}`;

/** The status an outcome leaves its exchange in. */
const statusAfter = (outcome: RoundOutcome) =>
  exchangeStatusOf({ kind: outcome.kind, errorCode: outcome.kind === 'error' ? outcome.error.code : undefined });

/**
 * The payload that announces a recorded round (`row`, a relation of ROUND_COLUMNS) on
 * OUTCOME_CHANNEL: its key, `<exchange id>:<round>`, then a newline and the record itself as JSON
 * when the whole fits Postgres's NOTIFY payload limit (under 8000 bytes), so the waiting leg need
 * not read it again; the key alone when it does not, and the waiting leg reads the row.
 * `decodeAnnouncedRound` (exchange-store.ts) reads it back.
 */
const announcement = (row: string) => `(
  SELECT CASE WHEN octet_length(carried) < 8000 THEN carried ELSE key END
  FROM (SELECT ${row}.exchange_id::text || ':' || ${row}.round::text AS key) AS k,
  LATERAL (SELECT key || chr(10) || json_build_object(
    'outcome', ${row}.outcome,
    'answers_digest', ${row}.answers_digest,
    'recorded_at', floor(extract(epoch FROM ${row}.recorded_at) * 1000),
    'deadline_at', floor(extract(epoch FROM ${row}.deadline_at) * 1000)
  )::text AS carried) AS c)`;

/**
 * The round inserted unless it stands (`$1`-`$8`, newRoundValues) and announced on `$9`, delivered
 * at commit: the two CTEs every record of a round starts with.
 */
const ROUND_RECORDED = `
  inserted AS (${INSERT_ROUND}),
  announced AS (SELECT pg_notify($9, ${announcement('inserted')}) FROM inserted)`;

/** A round recorded and announced, in a transaction that moves its exchange next. No row back when it stood already. */
const RECORD_ROUND = `WITH ${ROUND_RECORDED}
  SELECT inserted.*, (SELECT count(*) FROM announced) AS announced FROM inserted`;

/**
 * A modern exchange's round in one statement (one round trip, instead of a transaction's): the
 * round recorded and announced as RECORD_ROUND does, and the exchange row (`$10`-`$16`,
 * exchangeValues) created or moved to the outcome's status (`$17`), never out of a final one. No
 * row back when the round was recorded already.
 */
const RECORD_MODERN_ROUND = `
  WITH ${ROUND_RECORDED},
  moved AS (
    INSERT INTO exchanges (${EXCHANGE_COLUMNS}, status, rounds, asks)
    SELECT ${placeholders(10, 7)}, $17, $2, CASE WHEN $5 = 'ask' THEN 1 ELSE 0 END FROM inserted
    ON CONFLICT (id) DO UPDATE SET
      status = CASE WHEN exchanges.status = 'running' THEN EXCLUDED.status ELSE exchanges.status END,
      rounds = GREATEST(exchanges.rounds, EXCLUDED.rounds),
      asks = exchanges.asks + EXCLUDED.asks,
      updated_at = now()
    RETURNING 1
  )
  SELECT inserted.*, (SELECT count(*) FROM moved) AS moved, (SELECT count(*) FROM announced) AS announced
  FROM inserted`;

/** What stands for a round another write recorded first, read with a snapshot that sees it. */
async function standingRound(client: Pool | PoolClient, exchangeId: string, round: number): Promise<RoundRecord> {
  const { rows } = await client.query<RoundRow>({ name: 'read-round', text: READ_ROUND, values: [exchangeId, round] });
  return toRecord(rows[0]!);
}

/**
 * Records a round unless it is recorded already (first write wins, and what stands is returned),
 * then moves the exchange to the outcome's status (never out of a final one); the announcement
 * goes out at commit.
 */
/** `projection`: the cap of the stream to project into, or undefined when the exchange has no handshake-era call (modern era). */
async function insertRound(
  client: PoolClient,
  entry: NewRoundRow,
  projection: { legacyStreamMaxEvents: number } | undefined,
): Promise<RoundRecord> {
  const { exchangeId, round, outcome } = entry;
  const { rows } = await client.query<RoundRow>({
    text: RECORD_ROUND,
    values: [...newRoundValues(entry), OUTCOME_CHANNEL],
  });
  const row = rows[0];
  if (!row) return standingRound(client, exchangeId, round);
  await client.query({
    text: `UPDATE exchanges SET status = CASE WHEN status = 'running' THEN $2 ELSE status END,
             rounds = GREATEST(rounds, $3), asks = asks + (CASE WHEN $4 = 'ask' THEN 1 ELSE 0 END), updated_at = now()
           WHERE id = $1`,
    values: [exchangeId, statusAfter(outcome), round, outcome.kind],
  });
  // A handshake-era call's stream gets what this round means to it, in this same transaction.
  if (projection) await projectRound(client, { exchangeId, round, outcome }, projection.legacyStreamMaxEvents);
  return { ...toRecord(row), recordedNow: true };
}

/** `legacyStreamMaxEvents`: the cap of the handshake-era streams rounds are projected into. */
export function createRoundRecordPg(pool: Pool, legacyStreamMaxEvents: number): RoundRecordStore {
  return {
    async recordRound({ exchange, workflowId, ...entry }: NewRound) {
      const row: NewRoundRow = { ...entry, exchangeId: exchange.exchangeId };
      if (exchange.era === 'modern') {
        const { rows } = await pool.query<RoundRow>({
          name: 'record-modern-round',
          text: RECORD_MODERN_ROUND,
          values: [
            ...newRoundValues(row),
            OUTCOME_CHANNEL,
            ...exchangeValues(exchange, workflowId),
            statusAfter(entry.outcome),
          ],
        });
        return rows[0]
          ? { ...toRecord(rows[0]), recordedNow: true }
          : standingRound(pool, exchange.exchangeId, entry.round);
      }
      return inTransaction(pool, async (client) => {
        await createExchange(client, exchange, workflowId);
        // A handshake-era call's stream gets what this round means to it, in the same transaction.
        return insertRound(client, row, { legacyStreamMaxEvents });
      });
    },

    // The API records endings without the exchange's input at hand: the projection looks for a call itself.
    recordEnding: (entry) => inTransaction(pool, (client) => insertRound(client, entry, { legacyStreamMaxEvents })),
  };
}
