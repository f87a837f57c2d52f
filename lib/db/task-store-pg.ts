import type { Pool } from 'pg';
import type { ExchangeStatus, RoundOutcome } from '../exchange/types';
import { toRecord } from './exchange-round-rows';
import type { AnsweredKey, NewTask, TaskRecord, TaskSnapshot, TaskStore } from './task-store';
import { overRoundInputBudget } from '../exchange-rules/round-input-size';

interface TaskRow {
  task_id: string;
  exchange_id: string;
  principal: string;
  ttl_ms: number;
  poll_interval_ms: number;
  created_at: Date;
  expires_at: Date;
}

const TASK_COLUMNS = 'task_id, exchange_id, principal, ttl_ms, poll_interval_ms, created_at, expires_at';

const toTask = (row: TaskRow): TaskRecord => ({
  taskId: row.task_id,
  exchangeId: row.exchange_id,
  principal: row.principal,
  ttlMs: row.ttl_ms,
  pollIntervalMs: row.poll_interval_ms,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/** Inserts the task unless its exchange has one, then reads whichever stands (one statement). */
const CREATE_TASK = `
  WITH inserted AS (
    INSERT INTO exchange_tasks (task_id, exchange_id, principal, ttl_ms, poll_interval_ms, expires_at)
    VALUES ($1, $2, $3, $4::integer, $5::integer, now() + $4::integer * interval '1 millisecond')
    ON CONFLICT (exchange_id) DO NOTHING
    RETURNING ${TASK_COLUMNS}
  )
  SELECT ${TASK_COLUMNS} FROM inserted
  UNION ALL
  SELECT ${TASK_COLUMNS} FROM exchange_tasks WHERE exchange_id = $2 AND NOT EXISTS (SELECT 1 FROM inserted)`;

/** The task with its exchange's status and trace context, its last round and the keys answered of it; unexpired only. */
const READ_TASK = `
  SELECT t.task_id, t.exchange_id, t.principal, t.ttl_ms, t.poll_interval_ms, t.created_at, t.expires_at,
         e.status, e.traceparent, e.tracestate, r.round, r.outcome, r.answers_digest, r.recorded_at, r.deadline_at,
         coalesce(a.keys, '{}') AS answered_keys, coalesce(a.bytes, 0) AS answered_bytes,
         coalesce(a.key_bytes, '{}') AS answered_key_bytes, a.last_at
    FROM exchange_tasks t
    JOIN exchanges e ON e.id = t.exchange_id
    LEFT JOIN LATERAL (
      SELECT round, outcome, answers_digest, recorded_at, deadline_at FROM exchange_rounds
       WHERE exchange_id = t.exchange_id ORDER BY round DESC LIMIT 1
    ) r ON true
    LEFT JOIN LATERAL (
      SELECT array_agg(key ORDER BY key) AS keys, sum(bytes)::bigint AS bytes, jsonb_object_agg(key, bytes) AS key_bytes,
             max(answered_at) AS last_at
        FROM exchange_task_answers
       WHERE exchange_id = t.exchange_id AND round = r.round
    ) a ON true
   WHERE t.task_id = $1 AND t.expires_at > now()`;

interface SnapshotRow extends TaskRow {
  status: ExchangeStatus;
  traceparent: string | null;
  tracestate: string | null;
  round: number | null;
  outcome: RoundOutcome | null;
  answers_digest: string | null;
  recorded_at: Date | null;
  deadline_at: Date | null;
  answered_keys: string[];
  answered_bytes: string | number;
  answered_key_bytes: Record<string, number>;
  last_at: Date | null;
}

const latest = (...dates: Array<Date | null | undefined>) =>
  new Date(Math.max(...dates.map((d) => (d ? d.getTime() : 0))));

export function createTaskStorePg(pool: Pool): TaskStore {
  return {
    async create(task: NewTask) {
      const { rows } = await pool.query<TaskRow>(CREATE_TASK, [
        task.taskId,
        task.exchangeId,
        task.principal,
        task.ttlMs,
        task.pollIntervalMs,
      ]);
      return toTask(rows[0]!);
    },

    async read(taskId: string): Promise<TaskSnapshot | undefined> {
      const { rows } = await pool.query<SnapshotRow>(READ_TASK, [taskId]);
      const row = rows[0];
      if (!row) return undefined;
      const { round, outcome, recorded_at: recordedAt } = row;
      const lastRound =
        round === null || outcome === null || recordedAt === null
          ? undefined
          : toRecord({ ...row, round, outcome, recorded_at: recordedAt });
      return {
        ...toTask(row),
        exchangeStatus: row.status,
        ...(row.traceparent
          ? {
              traceContext: { traceparent: row.traceparent, ...(row.tracestate ? { tracestate: row.tracestate } : {}) },
            }
          : {}),
        ...(lastRound ? { lastRound } : {}),
        answeredKeys: row.answered_keys,
        answeredBytes: Number(row.answered_bytes),
        answeredKeyBytes: row.answered_key_bytes,
        lastUpdatedAt: latest(row.created_at, row.recorded_at, row.last_at),
      };
    },

    async readOfExchange(exchangeId: string) {
      const { rows } = await pool.query<TaskRow>(
        `SELECT ${TASK_COLUMNS} FROM exchange_tasks WHERE exchange_id = $1 AND expires_at > now()`,
        [exchangeId],
      );
      return rows[0] && toTask(rows[0]);
    },

    async recordAnswered(exchangeId: string, round: number, answers: ReadonlyArray<AnsweredKey>) {
      if (answers.length === 0) return [];
      const { rows } = await pool.query<{ key: string }>(
        `INSERT INTO exchange_task_answers (exchange_id, round, key, bytes)
           SELECT $1, $2, key, bytes FROM unnest($3::text[], $4::integer[]) AS a (key, bytes)
         ON CONFLICT DO NOTHING RETURNING key`,
        [exchangeId, round, answers.map((a) => a.key), answers.map((a) => a.bytes)],
      );
      return rows.map((row) => row.key);
    },

    async claimAnswers(exchangeId, round, answers, maxBytes) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // The task's row is the lock: updates of one task take their keys one after the other.
        await client.query('SELECT 1 FROM exchange_tasks WHERE exchange_id = $1 FOR UPDATE', [exchangeId]);
        const inserted = await client.query<{ key: string; bytes: number }>(
          `INSERT INTO exchange_task_answers (exchange_id, round, key, bytes)
             SELECT $1, $2, key, bytes FROM unnest($3::text[], $4::integer[]) AS a (key, bytes)
           ON CONFLICT DO NOTHING RETURNING key, bytes`,
          [exchangeId, round, answers.map((a) => a.key), answers.map((a) => a.bytes)],
        );
        const { rows } = await client.query<{ bytes: string }>(
          'SELECT coalesce(sum(bytes), 0)::bigint AS bytes FROM exchange_task_answers WHERE exchange_id = $1 AND round = $2',
          [exchangeId, round],
        );
        const size = Number(rows[0]!.bytes);
        if (overRoundInputBudget(size, maxBytes)) {
          await client.query('ROLLBACK');
          return { overBudget: size };
        }
        await client.query('COMMIT');
        return { claimed: inserted.rows.map((row) => row.key) };
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}
