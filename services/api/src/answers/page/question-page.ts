/**
 * A question's page: what it is about (call-summary.ts), then, while it waits, the form that
 * answers it (question-form.ts), or else what became of it (question-outcome.ts). A refused
 * answer comes back here with what was posted (`values`) and its `problems`; `notice` is one line
 * the route wants read first (the answer was taken, the question changed since it was shown).
 *
 * The caller of a question that excludes them (`excludedCaller`) sees the call they made and why
 * they cannot answer, and no form (question-access.ts). A question that requires a sign-in
 * (`requireSignIn`) says which, above its form.
 */
import { describeRequirement, requiresAnything } from '../../../../../lib/questions/step-up';
import type { AnswerProblem } from '../../../../../lib/questions/answer-problem';
import type { FormFields } from '../../../../../lib/questions/form-answer';
import type { AnswererIdentity, QuestionView } from '../../../../../lib/questions/question';
import { readRequestedSchema } from '../../../../../lib/questions/requested-schema';
import { questionPath } from './answer-paths';
import { renderCallSummary } from './call-summary';
import { html, type Html } from './html';
import { renderPage } from './layout';
import { renderPageHeader } from './page-header';
import { renderQuestionForm } from './question-form';
import { renderAnswersSoFar, renderOutcome } from './question-outcome';
import { utcTime } from './time-text';

export interface QuestionPage {
  question: QuestionView;
  answerer: AnswererIdentity;
  /** The session's anti-forgery token: the form and the header's sign-out button post it back. */
  csrf: string;
  values?: FormFields;
  problems?: AnswerProblem[];
  notice?: string;
  /** The signed-in person made the call and the question excludes them: no form, and why. */
  excludedCaller?: boolean;
  /** The time the page is rendered at (epoch ms), for "in N minutes"; now when not given. */
  now?: number;
  /** The sign-in's banner (layout.ts), when it has one. */
  banner?: Html;
}

/** Why the caller of an `excludeCaller` question has no form, and what stands. */
function excludedCallerPart(question: QuestionView): Html {
  const why = html`<p class="notice" role="status">You made this call, and this question must be answered by someone else: you cannot answer it.</p>`;
  if (question.status !== 'waiting') return html`${why}${renderOutcome(question)}`;
  return html`${why}<p class="outcome">It waits for their answer until ${utcTime(question.deadlineAt)}.</p>${renderAnswersSoFar(question)}`;
}

/** The sign-in a question requires of whoever answers it, in words, if it requires one. */
function requirementPart(question: QuestionView): Html | undefined {
  const requirement = question.addressing.requireSignIn;
  if (!requiresAnything(requirement)) return undefined;
  return html`<p class="hint">This question needs ${describeRequirement(requirement!)}.</p>`;
}

/** The form of a waiting question, after the answers it took so far (an "each of"); else its outcome. */
function answerPart(page: QuestionPage): Html {
  const { question } = page;
  if (question.status !== 'waiting') return renderOutcome(question);
  // The schema was checked when the question was asked; a field that somehow is not readable is left out.
  const { fields } = readRequestedSchema(question.requestedSchema);
  return html`${renderAnswersSoFar(question)}${requirementPart(question)}${renderQuestionForm({
    action: questionPath(question.id),
    fields,
    csrf: page.csrf,
    shown: question.shownDigest,
    values: page.values,
    problems: page.problems,
  })}`;
}

/** The whole page of one question. */
export function renderQuestion(page: QuestionPage): string {
  const { question } = page;
  const notice = page.notice ? html`<p class="notice" role="status">${page.notice}</p>` : undefined;
  const [title, heading, part] = page.excludedCaller
    ? ['A question about your call', 'Why you cannot answer', excludedCallerPart(question)]
    : ['A question for you', question.status === 'waiting' ? 'Your answer' : 'Outcome', answerPart(page)];
  return renderPage({
    title,
    header: renderPageHeader(page.answerer, page.csrf),
    banner: page.banner,
    body: html`${notice}
${renderCallSummary(question, page.now ?? Date.now())}
<h2>${heading}</h2>
${part}`,
  });
}
