/**
 * The question store in Postgres (question-store.ts). A claim runs in one transaction holding the
 * question's row lock, so two answerers on two API replicas cannot both be first. How its rows read
 * back as questions and answers is question-rows-read-pg.ts.
 */
import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import type { QuestionAnswer, QuestionView } from '../questions/question';
import type { EvidenceLog } from './evidence-log-pg';
import { inTransaction } from './pool';
import { answersOf, COLUMNS, takenOf, viewOf, type AnswerRow, type QuestionRow } from './question-rows-read-pg';
import type { AnswerAttempt, QuestionStore } from './question-store';
import { CALLER_KEY_SQL } from './waiting-questions-pg';

const answerId = () => randomBytes(12).toString('base64url');

/** Question rows as views, each with its taken answers (one read for all of them). */
async function viewsOf(pool: Pool, rows: QuestionRow[]): Promise<QuestionView[]> {
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
}

/** `evidence`: where every recorded decision is appended, in the claim's transaction (evidence-log-pg.ts). */
export function createQuestionStorePg(pool: Pool, evidence: EvidenceLog): QuestionStore {
  return {
    async waitingFor(keys, now, limit) {
      if (keys.length === 0) return { questions: [], moreWaiting: 0 };
      // `turn`: a question's place among its caller's, soonest deadline first; the list takes every
      // caller's first turn before anyone's second. `waiting` counts them all, before the limit.
      const { rows } = await pool.query<QuestionRow & { waiting: string }>(
        `SELECT ${COLUMNS}, count(*) OVER () AS waiting FROM (
            SELECT ${COLUMNS}, row_number() OVER (PARTITION BY ${CALLER_KEY_SQL} ORDER BY deadline_at, id) AS turn
              FROM questions
             WHERE status = 'waiting' AND deadline_at > $2
               AND (addressee_keys && $1 OR (escalate_at <= $2 AND escalation_keys && $1))
          ) AS waiting_questions
          ORDER BY turn, deadline_at, id LIMIT $3`,
        [keys, new Date(now), limit],
      );
      const waiting = rows[0] ? Number(rows[0].waiting) : 0;
      return { questions: await viewsOf(pool, rows), moreWaiting: waiting - rows.length };
    },

    async ofExchange(exchangeId) {
      const { rows } = await pool.query<QuestionRow>(
        `SELECT ${COLUMNS} FROM questions WHERE exchange_id = $1 ORDER BY round, key`,
        [exchangeId],
      );
      return viewsOf(pool, rows);
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
          const recorded = Number(counted[0]!.refused) < maxRecordedRefusals;
          if (!recorded)
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
          // Evidence: a recorded refusal is an entry; one past the budget is only counted (entries after it say how many).
          const logged = recorded
            ? await evidence.append(client, before, { ...attempt, answerId: id }, judgement)
            : undefined;
          return {
            kind: 'refused' as const,
            refusal: judgement.refusal,
            question: before,
            ...(logged ? { evidence: logged } : {}),
          };
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
        // Evidence: the taken answer's entry, committed with it or not at all.
        const logged = await evidence.append(client, before, { ...attempt, answerId: id }, judgement);
        const answer: QuestionAnswer = {
          round: row.round,
          key: row.key,
          answerId: id,
          response: attempt.response,
          by: attempt.by,
          via: attempt.via,
          sentAt: attempt.at,
          evidence: logged.hash,
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
        return { kind: 'taken' as const, decided: judgement.decided, question, answer, evidence: logged };
      }),

    async markSignalled(id) {
      await pool.query(`UPDATE question_answers SET signalled_at = now() WHERE id = $1 AND signalled_at IS NULL`, [id]);
    },

    async unsignalled(olderThanMs, limit) {
      const { rows } = await pool.query<
        AnswerRow & {
          exchange_id: string;
          round: number;
          key: string;
          evidence: string | null;
          signal_failures: number;
        }
      >(
        `SELECT a.id, a.question_id, a.answerer, a.via, a.at, a.action, a.taken, a.refusal, a.slot, a.response,
            a.signal_failures, q.exchange_id, q.round, q.key, e.hash AS evidence
          FROM question_answers a JOIN questions q ON q.id = a.question_id
          LEFT JOIN evidence_entries e ON e.answer_id = a.id
          WHERE a.taken AND a.signalled_at IS NULL AND a.at < now() - make_interval(secs => $1::double precision / 1000)
            AND (a.signal_retry_at IS NULL OR a.signal_retry_at <= now())
          ORDER BY a.at LIMIT $2`,
        [olderThanMs, limit],
      );
      return rows.map((r) => ({
        exchangeId: r.exchange_id,
        signalFailures: r.signal_failures,
        answer: {
          round: r.round,
          key: r.key,
          answerId: r.id,
          response: r.response!,
          by: r.answerer,
          via: r.via,
          sentAt: r.at.getTime(),
          ...(r.evidence !== null ? { evidence: r.evidence } : {}),
        },
      }));
    },

    async signalFailed(id, retryInMs) {
      await pool.query(
        `UPDATE question_answers
            SET signal_failures = signal_failures + 1,
                signal_retry_at = now() + make_interval(secs => $2::double precision / 1000)
          WHERE id = $1 AND signalled_at IS NULL`,
        [id, retryInMs],
      );
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
