/**
 * How the question store's Postgres rows read back (question-store-pg.ts): the rows of `questions`
 * and `question_answers` as the store selects them, the question view made of a row and its answers,
 * and the answers taken so far, which a question view shows and an answer is judged against.
 */
import type { Pool, PoolClient } from 'pg';
import type { SlottedAnswer } from '../questions/admission';
import type { Refusal } from '../questions/answer-judgement';
import type { AnswerChannel, AnswererIdentity, ElicitAnswer, QuestionView } from '../questions/question';

export interface QuestionRow {
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

export interface AnswerRow {
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

export const COLUMNS = `id, exchange_id, round, key, method, target, arguments, caller, message, requested_schema,
  addressing, asked_at, deadline_at, shown_digest, status`;
/** The columns an AnswerRow is read from. */
const ANSWER_COLUMNS = 'id, question_id, answerer, via, at, action, taken, refusal, slot, response';

export function viewOf(row: QuestionRow, answers: AnswerRow[]): QuestionView {
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
      .map((a) => ({
        by: a.answerer,
        at: a.at.getTime(),
        via: a.via,
        action: a.action ?? 'accept',
        ...(a.response?.content !== undefined ? { content: a.response.content } : {}),
      })),
  };
}

export const takenOf = (answers: AnswerRow[]): SlottedAnswer[] =>
  answers.filter((a) => a.taken).map((a) => ({ slot: a.slot ?? 0, by: a.answerer, response: a.response! }));

/** The taken answers of these questions, oldest first; refused attempts are the audit's (attemptsOf). */
export async function answersOf(client: Pool | PoolClient, questionIds: string[]): Promise<AnswerRow[]> {
  if (questionIds.length === 0) return [];
  const { rows } = await client.query<AnswerRow>(
    `SELECT ${ANSWER_COLUMNS} FROM question_answers WHERE question_id = ANY($1) AND taken ORDER BY at, id`,
    [questionIds],
  );
  return rows;
}
