/**
 * What became of a question that no longer waits, in place of its form: who answered and when
 * (each answer, for an "each of" question), or when it expired, or that it was cancelled.
 */
import type { QuestionView, TakenAnswer } from '../../../../../lib/questions/question';
import { html, type Html } from './html';
import { utcTime } from './time-text';

const VERBS: Record<TakenAnswer['action'], string> = { accept: 'accepted', decline: 'declined', cancel: 'cancelled' };

/** Who gave an answer: their display name, or their subject when the service knows no name. */
export const answererName = (answer: TakenAnswer) => answer.by.name ?? answer.by.subject;

function answered(answer: TakenAnswer): Html {
  return html`<p class="outcome">Answered by ${answererName(answer)} at ${utcTime(answer.at)} (${VERBS[answer.action]}).</p>`;
}

/** The outcome of a question whose status is not `waiting`. */
export function renderOutcome(question: QuestionView): Html {
  switch (question.status) {
    case 'answered':
      return question.answers.length === 0
        ? html`<p class="outcome">Answered.</p>`
        : html`${question.answers.map(answered)}`;
    case 'expired':
      return html`<p class="outcome">Expired at ${utcTime(question.deadlineAt)}, unanswered.</p>`;
    case 'cancelled':
      return html`<p class="outcome">Cancelled: the call no longer waits for an answer.</p>`;
    case 'waiting':
      return html``;
  }
}
