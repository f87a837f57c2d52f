/**
 * The question store in Postgres (question-store.ts). A claim runs in one transaction holding the
 * question's row lock, so two answerers on two API replicas cannot both be first.
 */
import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import type { SlottedAnswer } from '../questions/addressing';
import type { Refusal } from '../questions/answer-judgement';
import type {
  AnswerChannel,
  AnswererIdentity,
  ElicitAnswer,
  QuestionAnswer,
  QuestionView,
} from '../questions/question';
import { inTransaction } from './pool';
import type { AnswerAttempt, QuestionStore } from './question-store';

interface QuestionRow {
  id: string;
  exchange_id: string;
  round: number;
  key: string;
  method: string;
  target: string;
  arguments: Record<string, unknown>;
  caller: QuestionView['caller'];
  message: string;
  requested_schema: Record<string, unknown>;
  addressing: QuestionView['addressing'];
  asked_at: Date;
  deadline_at: Date;
  shown_digest: string;
  status: QuestionView['status'];
}

interface AnswerRow {
  id: string;
  question_id: string;
  answerer: AnswererIdentity;
  via: AnswerChannel;
  at: Date;
  action: ElicitAnswer['action'] | null;
  taken: boolean;
  refusal: Refusal | null;
  slot: number | null;
  response: ElicitAnswer | null;
}

const COLUMNS = `id, exchange_id, round, key, method, target, arguments, caller, message, requested_schema,
  addressing, asked_at, deadline_at, shown_digest, status`;
const ANSWER_COLUMNS = 'id, question_id, answerer, via, at, action, taken, refusal, slot, response';

function viewOf(row: QuestionRow, answers: AnswerRow[]): QuestionView {
  return {
    id: row.id,
    exchangeId: row.exchange_id,
    round: row.round,
    key: row.key,
    method: row.method,
    target: row.target,
    arguments: row.arguments,
    caller: row.caller,
    message: row.message,
    requestedSchema: row.requested_schema,
    addressing: row.addressing,
    askedAt: row.asked_at.getTime(),
    deadlineAt: row.deadline_at.getTime(),
    shownDigest: row.shown_digest,
    status: row.status,
    answers: answers
      .filter((a) => a.taken)
      .map((a) => ({ by: a.answerer, at: a.at.getTime(), via: a.via, action: a.action ?? 'accept' })),
  };
}

const takenOf = (answers: AnswerRow[]): SlottedAnswer[] =>
  answers.filter((a) => a.taken).map((a) => ({ slot: a.slot ?? 0, by: a.answerer, response: a.response! }));

async function answersOf(client: Pool | PoolClient, questionIds: string[]): Promise<AnswerRow[]> {
  if (questionIds.length === 0) return [];
  const { rows } = await client.query<AnswerRow>(
    `SELECT ${ANSWER_COLUMNS} FROM question_answers WHERE question_id = ANY($1) AND taken ORDER BY at, id`,
    [questionIds],
  );
  return rows;
}

const answerId = () => randomBytes(12).toString('base64url');

export function createQuestionStorePg(pool: Pool): QuestionStore {
  return {
    async waitingFor(keys, now, limit) {
      if (keys.length === 0) return [];
      const { rows } = await pool.query<QuestionRow>(
        `SELECT ${COLUMNS} FROM questions
          WHERE status = 'waiting' AND deadline_at > $2
            AND (addressee_keys && $1 OR (escalate_at <= $2 AND escalation_keys && $1))
          ORDER BY deadline_at, id LIMIT $3`,
        [keys, new Date(now), limit],
      );
      const answers = await answersOf(
        pool,
        rows.map((r) => r.id),
      );
      return rows.map((row) =>
        viewOf(
          row,
          answers.filter((a) => a.question_id === row.id),
        ),
      );
    },

    async ofExchange(exchangeId) {
      const { rows } = await pool.query<QuestionRow>(
        `SELECT ${COLUMNS} FROM questions WHERE exchange_id = $1 ORDER BY round, key`,
        [exchangeId],
      );
      const answers = await answersOf(
        pool,
        rows.map((r) => r.id),
      );
      return rows.map((row) =>
        viewOf(
          row,
          answers.filter((a) => a.question_id === row.id),
        ),
      );
    },

    async read(id) {
      const { rows } = await pool.query<QuestionRow>(`SELECT ${COLUMNS} FROM questions WHERE id = $1`, [id]);
      return rows[0] ? viewOf(rows[0], await answersOf(pool, [id])) : undefined;
    },

    claim: (attempt, judge, maxRecordedRefusals) =>
      inTransaction(pool, async (client) => {
        const { rows } = await client.query<QuestionRow>(`SELECT ${COLUMNS} FROM questions WHERE id = $1 FOR UPDATE`, [
          attempt.questionId,
        ]);
        const row = rows[0];
        if (!row) return { kind: 'not-found' as const };
        const answers = await answersOf(client, [row.id]);
        const before = viewOf(row, answers);
        const judgement = judge(before, takenOf(answers));
        const id = answerId();
        if (!judgement.taken) {
          const { rows: counted } = await client.query<{ refused: string }>(
            `SELECT count(*) AS refused FROM question_answers WHERE question_id = $1 AND NOT taken`,
            [row.id],
          );
          if (Number(counted[0]!.refused) >= maxRecordedRefusals)
            await client.query(`UPDATE questions SET refused_unrecorded = refused_unrecorded + 1 WHERE id = $1`, [
              row.id,
            ]);
          else
            await client.query(
              `INSERT INTO question_answers (id, question_id, answerer_id, answerer, via, at, action, taken, refusal)
                VALUES ($1, $2, $3, $4, $5, $6, $7, false, $8)`,
              [
                id,
                row.id,
                attempt.by.id,
                JSON.stringify(attempt.by),
                attempt.via,
                new Date(attempt.at),
                attempt.response.action,
                judgement.refusal,
              ],
            );
          return { kind: 'refused' as const, refusal: judgement.refusal, question: before };
        }
        await client.query(
          `INSERT INTO question_answers (id, question_id, answerer_id, answerer, via, at, action, taken, slot, response)
            VALUES ($1, $2, $3, $4, $5, $6, $7, true, $8, $9)`,
          [
            id,
            row.id,
            attempt.by.id,
            JSON.stringify(attempt.by),
            attempt.via,
            new Date(attempt.at),
            attempt.response.action,
            judgement.slot,
            JSON.stringify(attempt.response),
          ],
        );
        if (judgement.decided) await client.query(`UPDATE questions SET status = 'answered' WHERE id = $1`, [row.id]);
        const answer: QuestionAnswer = {
          round: row.round,
          key: row.key,
          answerId: id,
          response: attempt.response,
          by: attempt.by,
          via: attempt.via,
          sentAt: attempt.at,
        };
        const question = viewOf({ ...row, status: judgement.decided ? 'answered' : row.status }, [
          ...answers,
          {
            id,
            question_id: row.id,
            answerer: attempt.by,
            via: attempt.via,
            at: new Date(attempt.at),
            action: attempt.response.action,
            taken: true,
            refusal: null,
            slot: judgement.slot,
            response: attempt.response,
          },
        ]);
        return { kind: 'taken' as const, decided: judgement.decided, question, answer };
      }),

    async markSignalled(id) {
      await pool.query(`UPDATE question_answers SET signalled_at = now() WHERE id = $1 AND signalled_at IS NULL`, [id]);
    },

    async unsignalled(olderThanMs, limit) {
      const { rows } = await pool.query<AnswerRow & { exchange_id: string; round: number; key: string }>(
        `SELECT a.id, a.question_id, a.answerer, a.via, a.at, a.action, a.taken, a.refusal, a.slot, a.response,
            q.exchange_id, q.round, q.key
          FROM question_answers a JOIN questions q ON q.id = a.question_id
          WHERE a.taken AND a.signalled_at IS NULL AND a.at < now() - make_interval(secs => $1::double precision / 1000)
          ORDER BY a.at LIMIT $2`,
        [olderThanMs, limit],
      );
      return rows.map((r) => ({
        exchangeId: r.exchange_id,
        answer: {
          round: r.round,
          key: r.key,
          answerId: r.id,
          response: r.response!,
          by: r.answerer,
          via: r.via,
          sentAt: r.at.getTime(),
        },
      }));
    },

    async attemptsOf(exchangeId) {
      const { rows } = await pool.query<AnswerRow>(
        `SELECT a.id, a.question_id, a.answerer, a.via, a.at, a.action, a.taken, a.refusal, a.slot, a.response
          FROM question_answers a JOIN questions q ON q.id = a.question_id
          WHERE q.exchange_id = $1 ORDER BY a.at, a.id`,
        [exchangeId],
      );
      return rows.map((a): AnswerAttempt => ({
        id: a.id,
        questionId: a.question_id,
        by: a.answerer,
        via: a.via,
        at: a.at.getTime(),
        ...(a.action ? { action: a.action } : {}),
        taken: a.taken,
        ...(a.refusal ? { refusal: a.refusal } : {}),
      }));
    },
  };
}
