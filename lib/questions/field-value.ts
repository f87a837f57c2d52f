/**
 * The rules one field's value must meet: its type, and the constraints its schema declares
 * (lengths, formats, bounds, options, counts). Shared by the answer check and by the schema check,
 * which holds a field's `default` to the same rules a person's answer is held to.
 */
import { childPath } from '../protocol/json-budget';
import type { AnswerProblem } from './answer-problem';
import type { ChoicesField, FieldOption, RequestedField } from './requested-field';
import { FORMAT_NAMES, matchesFormat } from './string-formats';

/** At most this many option values are listed in a message. */
const LISTED_OPTIONS = 10;

/** JSON Schema counts a string's length in code points, not UTF-16 units. */
const codePoints = (text: string) => Array.from(text).length;

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function oneOf(options: FieldOption[]): string {
  const listed = options.slice(0, LISTED_OPTIONS).map((option) => JSON.stringify(option.value));
  return `must be one of ${listed.join(', ')}${options.length > LISTED_OPTIONS ? ', …' : ''}`;
}

function checkChoices(field: ChoicesField, value: unknown, path: string): AnswerProblem[] {
  if (!Array.isArray(value)) return [{ path, message: 'must be a list of options' }];
  const problems: AnswerProblem[] = [];
  const values = new Set(field.options.map((option) => option.value));
  const seen = new Set<unknown>();
  value.forEach((item: unknown, index) => {
    const itemPath = childPath(path, index);
    if (typeof item !== 'string' || !values.has(item)) problems.push({ path: itemPath, message: oneOf(field.options) });
    else if (seen.has(item)) problems.push({ path: itemPath, message: `repeats ${JSON.stringify(item)}` });
    seen.add(item);
  });
  if (field.minItems !== undefined && value.length < field.minItems) {
    problems.push({ path, message: `must have at least ${plural(field.minItems, 'option')} chosen` });
  }
  if (field.maxItems !== undefined && value.length > field.maxItems) {
    problems.push({ path, message: `must have at most ${plural(field.maxItems, 'option')} chosen` });
  }
  return problems;
}

/** What is wrong with `value` as `field`'s value, at `path`; empty when it is right. */
export function checkFieldValue(field: RequestedField, value: unknown, path: string): AnswerProblem[] {
  const problem = (message: string) => [{ path, message }];
  switch (field.kind) {
    case 'text': {
      if (typeof value !== 'string') return problem('must be a string');
      const length = codePoints(value);
      if (field.minLength !== undefined && length < field.minLength) {
        return problem(`must be at least ${plural(field.minLength, 'character')}`);
      }
      if (field.maxLength !== undefined && length > field.maxLength) {
        return problem(`must be at most ${plural(field.maxLength, 'character')}`);
      }
      if (field.format && !matchesFormat(value, field.format)) return problem(`must be ${FORMAT_NAMES[field.format]}`);
      return [];
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return problem('must be a number');
      if (field.integer && !Number.isInteger(value)) return problem('must be a whole number');
      if (field.minimum !== undefined && value < field.minimum) return problem(`must be at least ${field.minimum}`);
      if (field.maximum !== undefined && value > field.maximum) return problem(`must be at most ${field.maximum}`);
      return [];
    }
    case 'boolean':
      return typeof value === 'boolean' ? [] : problem('must be true or false');
    case 'choice':
      return typeof value === 'string' && field.options.some((option) => option.value === value)
        ? []
        : problem(oneOf(field.options));
    case 'choices':
      return checkChoices(field, value, path);
  }
}
