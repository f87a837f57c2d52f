/**
 * What became of a question that no longer waits, in place of its form, and said again on every
 * reload: each answer it took (who, by subject and issuer; when; through what; accepted, declined
 * or cancelled; and what it said, field by field), or when it expired, or that it was cancelled.
 */
import type { QuestionView, TakenAnswer } from '../../../../../lib/questions/question';
import { readRequestedSchema } from '../../../../../lib/questions/requested-schema';
import { renderAnswerContent } from './answer-content';
import { html, type Html } from './html';
import { renderIdentity } from './identity-text';
import { utcTime } from './time-text';

const VERBS: Record<TakenAnswer['action'], string> = { accept: 'Accepted', decline: 'Declined', cancel: 'Cancelled' };
const CHANNELS: Record<TakenAnswer['via'], string> = {
  page: 'on the answer page',
  api: 'through the answer API',
  client: "from the caller's client",
  harness: 'in the test harness',
};

/** One taken answer: who, when, through what, and what it said. */
export function renderTakenAnswer(answer: TakenAnswer, question: Pick<QuestionView, 'requestedSchema'>): Html {
  const { fields } = readRequestedSchema(question.requestedSchema);
  return html`<div class="taken">
<p class="outcome">${VERBS[answer.action]} by ${renderIdentity(answer.by)} at ${utcTime(answer.at)}, ${CHANNELS[answer.via]}.</p>
${renderAnswerContent(fields, answer.content)}
</div>`;
}

/** The answers taken so far, for a question that still waits for others' ("each of"). */
export function renderAnswersSoFar(question: QuestionView): Html | undefined {
  if (question.answers.length === 0) return undefined;
  return html`<h2>Answers so far</h2>${question.answers.map((answer) => renderTakenAnswer(answer, question))}`;
}

/** The outcome of a question whose status is not `waiting`. */
export function renderOutcome(question: QuestionView): Html {
  switch (question.status) {
    case 'answered':
      return question.answers.length === 0
        ? html`<p class="outcome">Answered.</p>`
        : html`${question.answers.map((answer) => renderTakenAnswer(answer, question))}`;
    case 'expired':
      return html`<p class="outcome">Expired at ${utcTime(question.deadlineAt)}, unanswered.</p>${renderAnswersSoFar(question)}`;
    case 'cancelled':
      return html`<p class="outcome">Cancelled: the call no longer waits for an answer.</p>${renderAnswersSoFar(question)}`;
    case 'waiting':
      return html``;
  }
}
