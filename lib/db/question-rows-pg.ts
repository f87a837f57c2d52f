/**
 * The worker's side of the questions table: an addressed ask's questions written in the
 * transaction that records the ask (so a question exists exactly when its ask does), and the SQL
 * that closes the questions still waiting when a later round is recorded (`CLOSE_WAITING_QUESTIONS`,
 * part of every round's record statement).
 */
import type { PoolClient } from 'pg';
import { EXCHANGE_EXPIRED } from '../protocol/exchange-errors';
import type { NewQuestion } from '../questions/new-questions';

const QUESTION_COLUMNS = `id, exchange_id, round, key, method, target, arguments, caller, message, requested_schema,
  addressing, addressee_keys, escalation_keys, escalate_at, asked_at, deadline_at, shown_digest`;

/** Writes the questions of an ask this transaction recorded. */
export async function insertQuestions(client: PoolClient, questions: NewQuestion[]): Promise<void> {
  for (const q of questions)
    await client.query({
      name: 'insert-question',
      text: `INSERT INTO questions (${QUESTION_COLUMNS})
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
        ON CONFLICT (exchange_id, round, key) DO NOTHING`,
      values: [
        q.id,
        q.exchangeId,
        q.round,
        q.key,
        q.method,
        q.target,
        JSON.stringify(q.arguments),
        JSON.stringify(q.caller),
        q.message,
        JSON.stringify(q.requestedSchema),
        JSON.stringify(q.addressing),
        q.addresseeKeys,
        q.escalationKeys,
        q.escalateAt === undefined ? null : new Date(q.escalateAt),
        new Date(q.askedAt),
        new Date(q.deadlineAt),
        q.shownDigest,
      ],
    });
}

/**
 * For a round's record statement (a relation `inserted` of the round just written): the questions
 * of earlier rounds still waiting are closed. An ending closes them as expired when the round timed
 * out and as cancelled otherwise. A round that goes on is reached past waiting questions only when
 * their wait ended and their handler decides what that means (`onExpiry: 'handler'`): expired. A
 * question that was answered is `answered` already (its claim said so).
 */
export const CLOSE_WAITING_QUESTIONS = `UPDATE questions SET status = CASE
    WHEN inserted.outcome->>'kind' <> 'error' THEN 'expired'
    WHEN (inserted.outcome->'error'->>'code')::integer = ${EXCHANGE_EXPIRED} THEN 'expired' ELSE 'cancelled' END
  FROM inserted
  WHERE questions.exchange_id = inserted.exchange_id
    AND questions.round < inserted.round AND questions.status = 'waiting'`;
