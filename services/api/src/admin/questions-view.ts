/**
 * An exchange's questions as the admin API shows them: each question addressed to someone other
 * than the caller, who it was addressed to, how it stands, the answers it took (who, when,
 * through what) and every attempt, refused ones included with their reason (a refusal leaves no
 * trace in Temporal's history, so this is where an operator finds it). Never an answer's content.
 */
import type { AnswerAttempt } from '../../../../lib/db/question-store';
import type { QuestionView } from '../../../../lib/questions/question';

const iso = (ms: number) => new Date(ms).toISOString();

export function questionsView(questions: QuestionView[], attempts: AnswerAttempt[]): Array<Record<string, unknown>> {
  return questions.map((q) => ({
    id: q.id,
    round: q.round,
    key: q.key,
    status: q.status,
    addressedTo: q.addressing,
    askedAt: iso(q.askedAt),
    deadlineAt: iso(q.deadlineAt),
    answers: q.answers.map((a) => ({
      by: a.by.id,
      ...(a.by.name !== undefined ? { name: a.by.name } : {}),
      ...(a.by.email !== undefined ? { email: a.by.email } : {}),
      at: iso(a.at),
      via: a.via,
      action: a.action,
    })),
    attempts: attempts
      .filter((a) => a.questionId === q.id)
      .map((a) => ({
        by: a.by.id,
        ...(a.by.name !== undefined ? { name: a.by.name } : {}),
        ...(a.by.email !== undefined ? { email: a.by.email } : {}),
        at: iso(a.at),
        via: a.via,
        ...(a.action ? { action: a.action } : {}),
        taken: a.taken,
        ...(a.refusal ? { refusal: a.refusal } : {}),
      })),
  }));
}
