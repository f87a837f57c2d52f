/**
 * A round's record in Postgres: the round inserted unless it stands (first write wins, and what
 * stands is returned), announced on OUTCOME_CHANNEL at commit, its exchange moved to the outcome's
 * status (never out of a final one), and for a legacy call its stream's messages written in
 * the same transaction (legacy-projection.ts). A modern round is all of that in one statement. One
 * part of the exchange store (exchange-store-pg.ts).
 */
import type { Pool, PoolClient } from 'pg';
import { exchangeStatusOf } from '../exchange/exchange-status';
import type { RoundOutcome } from '../exchange/types';
import { placeholders, READ_ROUND, ROUND_COLUMNS, toRecord, type RoundRow } from './exchange-round-rows';
import { elseCreatingExchangeRow, EXCHANGE_COLUMNS, EXCHANGE_VALUE_COUNT, exchangeValues } from './exchange-rows-pg';
import type { NewRound, RoundRecordStore } from './exchange-store';
import type { RoundRecord } from '../exchange/types';
import { OUTCOME_CHANNEL } from './exchange-store';
import { projectRound } from './legacy-projection';
import { inTransaction } from './pool';
import { CLOSE_WAITING_QUESTIONS, insertQuestions } from './question-rows-pg';
import { isAddressedAsk } from '../questions/addressing';
import { questionsOfAsk } from '../questions/new-questions';
import { withinWaitingBudget } from './waiting-questions-pg';

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
 * What a recorded round does to its exchange (`$2` the round, `$5` the outcome's kind, `$10` the
 * status it leaves): the status moves, never out of a final one; the rounds and asks are counted.
 * The one status transition: both statements below apply it, to the row a round finds (an UPDATE)
 * or to the row it creates (an INSERT's conflict).
 */
const MOVE_EXCHANGE = `
  status = CASE WHEN exchanges.status = 'running' THEN $10 ELSE exchanges.status END,
  rounds = GREATEST(exchanges.rounds, $2),
  asks = exchanges.asks + CASE WHEN $5 = 'ask' THEN 1 ELSE 0 END,
  updated_at = now()`;

/**
 * A round's record in one statement: the round inserted unless it stands (`$1`-`$8`,
 * newRoundValues), announced on `$9` (delivered at commit), and its exchange moved (`moved`, one of
 * the two below). No row back, and nothing changed, when the round stood already.
 */
const recordRoundSql = (moved: string) => `
  WITH inserted AS (${INSERT_ROUND}),
  announced AS (SELECT pg_notify($9, ${announcement('inserted')}) FROM inserted),
  closed AS (${CLOSE_WAITING_QUESTIONS} RETURNING 1),
  moved AS (${moved} RETURNING 1)
  SELECT inserted.*, (SELECT count(*) FROM moved) AS moved, (SELECT count(*) FROM announced) AS announced,
    (SELECT count(*) FROM closed) AS closed
  FROM inserted`;

/** A round's record that writes only what it changes: the exchange's row, which its first leg wrote, moved. */
const RECORD_ROUND = recordRoundSql(
  `UPDATE exchanges SET ${MOVE_EXCHANGE} FROM inserted WHERE exchanges.id = inserted.exchange_id`,
);

/**
 * A round's record that creates its exchange's row too (`$11`-`$19`, exchangeValues), for the rare
 * exchange whose row is missing (elseCreatingExchangeRow): created as the round leaves it, or moved
 * like RECORD_ROUND's when another write created it meanwhile. The round is inserted before the
 * row, as in RECORD_ROUND, so two writes of a round take their locks in one order: the second waits
 * on the round, never on a row the first holds.
 */
const RECORD_FIRST_ROUND = recordRoundSql(`
  INSERT INTO exchanges (${EXCHANGE_COLUMNS}, status, rounds, asks)
  SELECT ${placeholders(11, EXCHANGE_VALUE_COUNT)}, $10, $2, CASE WHEN $5 = 'ask' THEN 1 ELSE 0 END FROM inserted
  ON CONFLICT (id) DO UPDATE SET ${MOVE_EXCHANGE}`);

/** What stands for a round another write recorded first, read with a snapshot that sees it. */
async function standingRound(client: Pool | PoolClient, exchangeId: string, round: number): Promise<RoundRecord> {
  const { rows } = await client.query<RoundRow>({ name: 'read-round', text: READ_ROUND, values: [exchangeId, round] });
  return toRecord(rows[0]!);
}

/** The exchange a round's record creates the row of, when it has none. */
type Creating = Pick<NewRound, 'exchange' | 'workflowId'>;

/**
 * Records a round unless it is recorded already (first write wins, and what stands is returned),
 * with RECORD_ROUND, or RECORD_FIRST_ROUND given the exchange to create (`creating`); then, when
 * this wrote it, runs `project` (what the round means to a legacy call's stream, in the
 * caller's transaction). Without it (a modern round) the statement is the whole record.
 */
async function recordIn(
  client: Pool | PoolClient,
  entry: NewRoundRow,
  creating?: Creating,
  project?: (record: RoundRecord) => Promise<void>,
): Promise<RoundRecord> {
  const values = [...newRoundValues(entry), OUTCOME_CHANNEL, statusAfter(entry.outcome)];
  const { rows } = await client.query<RoundRow>(
    creating
      ? {
          name: 'record-first-round',
          text: RECORD_FIRST_ROUND,
          values: [...values, ...exchangeValues(creating.exchange, creating.workflowId)],
        }
      : { name: 'record-round', text: RECORD_ROUND, values },
  );
  const row = rows[0];
  if (!row) return standingRound(client, entry.exchangeId, entry.round);
  const record = toRecord(row);
  await project?.(record);
  return { ...record, recordedNow: true };
}

/**
 * `legacyStreamMaxEvents`: the cap of the legacy streams rounds are projected into.
 * `maxWaitingQuestionsPerPrincipal`: the questions one caller may have waiting (none: no budget).
 */
export function createRoundRecordPg(
  pool: Pool,
  legacyStreamMaxEvents: number,
  maxWaitingQuestionsPerPrincipal?: number,
): RoundRecordStore {
  /** The round to record: an addressed ask only while its caller has room for its questions (waiting-questions-pg.ts). */
  async function withinBudget(client: PoolClient, entry: NewRoundRow, exchange?: NewRound['exchange']) {
    if (!exchange || entry.outcome.kind !== 'ask' || !isAddressedAsk(entry.outcome.inputRequests)) return entry;
    const outcome = await withinWaitingBudget(
      client,
      exchange,
      entry.round,
      entry.outcome,
      maxWaitingQuestionsPerPrincipal,
    );
    if (outcome === entry.outcome) return entry;
    const { deadlineAt: _none, ...ending } = entry;
    return { ...ending, outcome };
  }

  // A legacy call's stream gets what the round means to it in the transaction that records it, and
  // an addressed ask its questions (or, without room for them, the error that ends its exchange).
  const recordProjected = (asked: NewRoundRow, creating?: Creating, exchange?: NewRound['exchange']) =>
    inTransaction(pool, async (client) => {
      const entry = await withinBudget(client, asked, exchange);
      return recordIn(client, entry, creating, async (record) => {
        if (exchange?.era !== 'modern') await projectRound(client, entry, legacyStreamMaxEvents, exchange);
        if (exchange && entry.outcome.kind === 'ask' && isAddressedAsk(entry.outcome.inputRequests))
          await insertQuestions(
            client,
            questionsOfAsk(
              exchange,
              entry.round,
              entry.outcome.inputRequests,
              record.recordedAt.getTime(),
              (record.deadlineAt ?? record.recordedAt).getTime(),
            ),
          );
      });
    });
  return {
    recordRound({ exchange, workflowId, ...entry }: NewRound) {
      const row: NewRoundRow = { ...entry, exchangeId: exchange.exchangeId };
      const addressed = entry.outcome.kind === 'ask' && isAddressedAsk(entry.outcome.inputRequests);
      // A modern round is one statement: one round trip, no transaction (an addressed ask writes its questions too).
      if (exchange.era === 'modern' && !addressed)
        return elseCreatingExchangeRow(
          () => recordIn(pool, row),
          () => recordIn(pool, row, { exchange, workflowId }),
        );
      return elseCreatingExchangeRow(
        () => recordProjected(row, undefined, exchange),
        () => recordProjected(row, { exchange, workflowId }, exchange),
      );
    },

    // The API records endings without the exchange's input at hand: the projection looks for a call itself.
    recordEnding: (entry) => recordProjected(entry),
  };
}
