import type { Pool, PoolClient } from 'pg';
import { exchangeStatusOf } from '../exchange/exchange-status';
import type { ExchangeEvent, ExchangeInput, RoundOutcome } from '../exchange/types';
import type { ExchangeTraceContext } from '../tracing/exchange-trace';
import type { ExchangeRoom, ExchangeStore, NewRound, RoundRecord } from './exchange-store';
import { EVENT_CHANNEL, OUTCOME_CHANNEL } from './exchange-store';
import { projectEvent, projectRound } from './legacy-projection';
import { inTransaction } from './pool';

export interface RoundRow {
  exchange_id: string;
  round: number;
  outcome: RoundOutcome;
  answers_digest: string | null;
  recorded_at: Date;
  deadline_at: Date | null;
}

const ROUND_COLUMNS = 'exchange_id, round, outcome, answers_digest, recorded_at, deadline_at';

/*
 * The statements every round makes (the API's insert and read of a leg, the round's start and its
 * record) are named, so each connection prepares them once: Postgres then parses and rewrites
 * them once per connection instead of once a run, and after five runs may keep one generic plan.
 * Their texts are constants; a name always means the same text.
 */

/** A round's row (ROUND_COLUMNS) as its record; the task store reads the same columns. */
export function toRecord(row: RoundRow): RoundRecord {
  return {
    exchangeId: row.exchange_id,
    round: row.round,
    outcome: row.outcome,
    answersDigest: row.answers_digest ?? undefined,
    recordedAt: row.recorded_at,
    ...(row.deadline_at ? { deadlineAt: row.deadline_at } : {}),
  };
}

/** `$from, $from + 1, …`: `count` placeholders. */
const placeholders = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

/** What an exchange's row is created with, whichever write creates it: the columns, and their values in order. */
const EXCHANGE_COLUMNS = 'id, workflow_id, era, method, target, principal, handler_version';
const exchangeValues = (exchange: ExchangeInput, workflowId: string) => [
  exchange.exchangeId,
  workflowId,
  exchange.era,
  exchange.request.method,
  exchange.request.target,
  exchange.principal,
  // The version of the handlers of the API that started it (migration 0019); none from an older API.
  exchange.handlerVersion ?? null,
];

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

const READ_ROUND = `SELECT ${ROUND_COLUMNS} FROM exchange_rounds WHERE exchange_id = $1 AND round = $2`;
const READ_ROUND_AND_NEXT = `SELECT ${ROUND_COLUMNS} FROM exchange_rounds
  WHERE exchange_id = $1 AND round IN ($2::integer, $2::integer + 1)`;

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
 * Creates an exchange's row (status running) unless it exists (`$1`-`$7`, exchangeValues). With a
 * budget (`$8`), only while fewer exchanges than that run: the count is read in the same statement,
 * from the counters the row's own insert moves (migration 0015). With a budget for its principal
 * (`$9`), only while the principal (`$6`) runs fewer than that, counted on the running rows'
 * principal index (migration 0017). The trace context of the leg that starts it (`$10`, `$11`,
 * migration 0020) is written with it. One row back: whether there was room in each (the insert runs
 * whether or not the query reads it).
 */
const CREATE_EXCHANGE = `
  WITH room AS (
    SELECT $8::bigint IS NULL OR coalesce(sum(running), 0) < $8::bigint AS ok,
           CASE WHEN $9::bigint IS NULL THEN true
                ELSE (SELECT count(*) FROM exchanges WHERE principal = $6 AND status = 'running') < $9::bigint
           END AS principal_ok
      FROM exchange_running_counts
  ), created AS (
    INSERT INTO exchanges (${EXCHANGE_COLUMNS}, traceparent, tracestate, status)
    SELECT ${placeholders(1, 7)}, $10, $11, 'running' FROM room WHERE room.ok AND room.principal_ok
    ON CONFLICT (id) DO NOTHING
    RETURNING 1
  )
  SELECT ok, principal_ok FROM room`;

/** Creates the exchange row on its first write, whichever write that is, unless a budget is full. */
async function createExchange(
  client: Pool | PoolClient,
  exchange: ExchangeInput,
  workflowId: string,
  maxRunning?: number,
  maxRunningOfPrincipal?: number,
  trace?: ExchangeTraceContext,
): Promise<ExchangeRoom> {
  const { rows } = await client.query<{ ok: boolean; principal_ok: boolean }>({
    name: 'create-exchange',
    text: CREATE_EXCHANGE,
    values: [
      ...exchangeValues(exchange, workflowId),
      maxRunning ?? null,
      maxRunningOfPrincipal ?? null,
      trace?.traceparent ?? null,
      trace?.tracestate ?? null,
    ],
  });
  const { ok, principal_ok } = rows[0]!;
  return !ok ? 'full' : principal_ok ? 'room' : 'full-for-principal';
}

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

/** `legacyStreamMaxEvents`: the cap of the handshake-era streams this store projects into. */
export function createExchangeStorePg(pool: Pool, options: { legacyStreamMaxEvents?: number } = {}): ExchangeStore {
  const legacyStreamMaxEvents = options.legacyStreamMaxEvents ?? 1000;
  return {
    createExchange: (exchange, workflowId, maxRunning, maxRunningOfPrincipal, trace) =>
      createExchange(pool, exchange, workflowId, maxRunning, maxRunningOfPrincipal, trace),

    async readTraceContext(exchangeId) {
      const { rows } = await pool.query<{ traceparent: string | null; tracestate: string | null }>({
        name: 'read-trace-context',
        text: 'SELECT traceparent, tracestate FROM exchanges WHERE id = $1',
        values: [exchangeId],
      });
      const { traceparent, tracestate } = rows[0] ?? {};
      if (!traceparent) return undefined;
      return { traceparent, ...(tracestate ? { tracestate } : {}) };
    },

    async forgetUnstarted(exchangeId) {
      await pool.query({
        text: 'DELETE FROM exchanges WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM exchange_rounds WHERE exchange_id = $1)',
        values: [exchangeId],
      });
    },

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

    async countRunning() {
      const { rows } = await pool.query<{ n: string }>(
        'SELECT coalesce(sum(running), 0) AS n FROM exchange_running_counts',
      );
      return Number(rows[0]?.n ?? 0);
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
        name: 'start-round',
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
        await createExchange(client, exchange, workflowId);
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
