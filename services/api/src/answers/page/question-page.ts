/**
 * A question's page: what it is about (call-summary.ts), then, while it waits, the form that
 * answers it (question-form.ts), or else what became of it (question-outcome.ts). A refused
 * answer comes back here with what was posted (`values`) and its `problems`; `notice` is one line
 * the route wants read first (the answer was taken, the question changed since it was shown).
 */
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
import { renderOutcome } from './question-outcome';

export interface QuestionPage {
  question: QuestionView;
  answerer: AnswererIdentity;
  /** The session's anti-forgery token: the form and the header's sign-out button post it back. */
  csrf: string;
  values?: FormFields;
  problems?: AnswerProblem[];
  notice?: string;
  /** The time the page is rendered at (epoch ms), for "in N minutes"; now when not given. */
  now?: number;
  /** The sign-in's banner (layout.ts), when it has one. */
  banner?: Html;
}

/** The whole page of one question. */
export function renderQuestion(page: QuestionPage): string {
  const { question } = page;
  // The schema was checked when the question was asked; a field that somehow is not readable is left out.
  const { fields } = readRequestedSchema(question.requestedSchema);
  const answer =
    question.status === 'waiting'
      ? renderQuestionForm({
          action: questionPath(question.id),
          fields,
          csrf: page.csrf,
          shown: question.shownDigest,
          values: page.values,
          problems: page.problems,
        })
      : renderOutcome(question);
  const notice = page.notice ? html`<p class="notice" role="status">${page.notice}</p>` : undefined;
  return renderPage({
    title: 'A question for you',
    header: renderPageHeader(page.answerer, page.csrf),
    banner: page.banner,
    body: html`${notice}
${renderCallSummary(question, page.now ?? Date.now())}
<h2>Your answer</h2>
${answer}`,
  });
}
