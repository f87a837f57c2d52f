/**
 * The answer form of a waiting question: one field per property of its `requestedSchema`, the
 * page's hidden `csrf` and `shown` (the digest of what this page showed, so an answer to a
 * question that changed since is refused), and the two submit buttons. The decline button skips
 * the browser's checks: declining needs no field filled in. Problems that belong to no field (the
 * action, a field the form does not have) are listed above the fields.
 */
import type { AnswerProblem } from '../../../../../lib/questions/answer-problem';
import type { FormFields } from '../../../../../lib/questions/form-answer';
import { ACTION_FIELD, CSRF_FIELD, SHOWN_FIELD } from '../../../../../lib/questions/form-field-names';
import type { RequestedField } from '../../../../../lib/questions/requested-field';
import { renderField } from './field-input';
import { belongsTo, fieldState } from './field-state';
import { html, type Html } from './html';
import { visibleText } from './visible-text';

export interface QuestionForm {
  /** Where the form posts: the question's own URL. */
  action: string;
  fields: RequestedField[];
  csrf: string;
  shown: string;
  values?: FormFields;
  problems?: AnswerProblem[];
}

function summary(problems: AnswerProblem[], unplaced: AnswerProblem[]): Html | undefined {
  if (problems.length === 0) return undefined;
  const items = unplaced.map(
    (problem) => html`<li><code>${visibleText(problem.path)}</code> ${visibleText(problem.message)}</li>`,
  );
  return html`<div class="problems" role="alert"><p>The answer was not taken. Check the fields marked below.</p>${
    unplaced.length > 0 ? html`<ul>${items}</ul>` : undefined
  }</div>`;
}

/** The form's markup. */
export function renderQuestionForm(form: QuestionForm): Html {
  const problems = form.problems ?? [];
  const states = form.fields.map((field, index) => fieldState(field, index, form.values, problems));
  const unplaced = problems.filter((problem) => !states.some((state) => belongsTo(problem, state.name)));
  return html`<form method="post" action="${form.action}">
${summary(problems, unplaced)}
<input type="hidden" name="${CSRF_FIELD}" value="${form.csrf}">
<input type="hidden" name="${SHOWN_FIELD}" value="${form.shown}">
${form.fields.map((field, index) => renderField(field, states[index]!))}
<div class="actions">
<button type="submit" name="${ACTION_FIELD}" value="accept">Accept</button>
<button type="submit" name="${ACTION_FIELD}" value="decline" formnovalidate>Decline</button>
</div>
</form>`;
}
