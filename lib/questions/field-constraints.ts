/**
 * Whether a field, as its schema declares it, can be answered at all: counts and lengths that are
 * whole and not negative, bounds that leave room (minimum not over maximum), options that exist and
 * differ, and a default that meets the field's own rules. A question failing these could only be
 * declined, so the service refuses it when it is asked instead.
 */
import { childPath } from '../protocol/json-budget';
import type { AnswerProblem } from './answer-problem';
import { checkFieldValue } from './field-value';
import type { RequestedField } from './requested-field';

function checkRange(
  field: Record<string, unknown>,
  [low, high]: [string, string],
  whole: boolean,
  path: string,
): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  for (const key of whole ? [low, high] : []) {
    const value = field[key];
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
      problems.push({ path: childPath(path, key), message: 'must be a whole number, 0 or more' });
    }
  }
  const [from, to] = [field[low], field[high]];
  if (typeof from === 'number' && typeof to === 'number' && from > to) {
    problems.push({ path: childPath(path, low), message: `must not be over ${high} (${to})` });
  }
  return problems;
}

function checkOptions(field: RequestedField, path: string): AnswerProblem[] {
  if (field.kind !== 'choice' && field.kind !== 'choices') return [];
  if (field.options.length === 0) return [{ path, message: 'must offer at least one option' }];
  const values = field.options.map((option) => option.value);
  const repeated = values.find((value, index) => values.indexOf(value) !== index);
  if (repeated === undefined) return [];
  return [{ path, message: `offers ${JSON.stringify(repeated)} more than once` }];
}

/** What makes `field` (read from the property at `path`) unanswerable; empty when nothing does. */
export function checkFieldConstraints(field: RequestedField, path: string): AnswerProblem[] {
  const record = field as unknown as Record<string, unknown>;
  const problems = [
    ...(field.kind === 'text' ? checkRange(record, ['minLength', 'maxLength'], true, path) : []),
    ...(field.kind === 'number' ? checkRange(record, ['minimum', 'maximum'], false, path) : []),
    ...(field.kind === 'choices' ? checkRange(record, ['minItems', 'maxItems'], true, path) : []),
    ...checkOptions(field, path),
  ];
  if (problems.length === 0 && field.default !== undefined) {
    problems.push(...checkFieldValue(field, field.default, childPath(path, 'default')));
  }
  return problems;
}
