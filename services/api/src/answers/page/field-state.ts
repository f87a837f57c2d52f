/**
 * What one field of the answer form shows: the value it is filled with (what was posted, when a
 * refused answer comes back, or else the schema's default) and the problems that belong to it.
 */
import type { AnswerProblem } from '../../../../../lib/questions/answer-problem';
import { toDateTimeLocal } from '../../../../../lib/questions/datetime-local';
import type { FormFields } from '../../../../../lib/questions/form-answer';
import { formFieldName } from '../../../../../lib/questions/form-field-names';
import type { RequestedField } from '../../../../../lib/questions/requested-field';

export interface FieldState {
  /** The form field's name (its answer path). */
  name: string;
  /** The element ids: the input's (options append `-<n>`), its hint's, its error's. */
  id: string;
  /** The values to fill in: one for an input or a select, the ticked ones for checkboxes. */
  values: string[];
  /** For a checkbox: ticked. */
  checked: boolean;
  problems: AnswerProblem[];
}

/** Whether `problem` is about the field at `path` (or one of its items, `path[1]`). */
export const belongsTo = (problem: AnswerProblem, path: string) =>
  problem.path === path || problem.path.startsWith(`${path}[`);

function defaults(field: RequestedField): string[] {
  if (field.default === undefined) return [];
  if (field.kind === 'choices') return field.default ?? [];
  if (field.kind === 'text' && field.format === 'date-time') return [toDateTimeLocal(field.default) ?? ''];
  return [String(field.default)];
}

/** The state of `field`, the `index`th of its form, from what was posted (`posted`) or its default. */
export function fieldState(
  field: RequestedField,
  index: number,
  posted: FormFields | undefined,
  problems: AnswerProblem[],
): FieldState {
  const name = formFieldName(field.name);
  const sent = posted?.[name];
  const values = posted ? (sent === undefined ? [] : Array.isArray(sent) ? sent : [sent]) : defaults(field);
  const checked = posted ? sent !== undefined : field.kind === 'boolean' && field.default === true;
  return {
    name,
    id: `field-${index}`,
    values,
    checked,
    problems: problems.filter((problem) => belongsTo(problem, name)),
  };
}
