/**
 * An answer page's POST (`application/x-www-form-urlencoded`, already parsed to fields) turned
 * into an elicitation answer: the submit button says accept or decline; each property's field
 * (form-field-names.ts) is converted to its type (a number, a checkbox's boolean with absent as
 * false, a multi-select from the field repeated, a datetime-local as UTC); an empty optional
 * field is left out; then the answer is held to the schema (answer-content.ts). A decline carries
 * no content, whatever the form held. The page's own `csrf` and `shown` are the route's to check.
 */
import type { AnswerProblem } from './answer-problem';
import { checkAnswerContent } from './answer-content';
import { fromDateTimeLocal } from './datetime-local';
import { ACTION_FIELD, CSRF_FIELD, SHOWN_FIELD, formFieldName } from './form-field-names';
import type { ElicitAnswer } from './question';
import type { FieldValue, RequestedField } from './requested-field';
import { readRequestedSchema } from './requested-schema';

export type FormFields = Record<string, string | string[]>;
export type FormAnswer = { answer: ElicitAnswer } | { problems: AnswerProblem[] };

const PAGE_FIELDS = new Set([ACTION_FIELD, CSRF_FIELD, SHOWN_FIELD]);
// A decimal as a person types it; `Number` alone would also take `0x1f`, `Infinity` and spaces.
const DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

const valuesOf = (raw: string | string[] | undefined): string[] =>
  raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];

/** One field's posted value converted to its type: a value, nothing (left out), or what is wrong. */
function convert(field: RequestedField, raw: string[]): { value?: FieldValue; problem?: string } {
  if (field.kind === 'boolean') return { value: raw.length > 0 };
  if (field.kind === 'choices') return { value: raw.filter((value) => value !== '') };
  if (raw.length > 1) return { problem: 'was sent more than once' };
  const text = raw[0] ?? '';
  if (text === '') return {};
  if (field.kind === 'number') {
    const trimmed = text.trim();
    return DECIMAL.test(trimmed) ? { value: Number(trimmed) } : { problem: 'must be a number' };
  }
  if (field.kind === 'text' && field.format === 'date-time') return { value: fromDateTimeLocal(text) };
  return { value: text };
}

/** The answer `fields` (the page's form as posted) give to a question asking `requestedSchema`, or what is wrong. */
export function answerFromForm(requestedSchema: unknown, fields: FormFields): FormAnswer {
  const [action, ...more] = valuesOf(fields[ACTION_FIELD]);
  if ((action !== 'accept' && action !== 'decline') || more.length > 0) {
    return { problems: [{ path: ACTION_FIELD, message: 'must be accept or decline' }] };
  }
  const schema = readRequestedSchema(requestedSchema);
  if (schema.problems.length > 0) return { problems: schema.problems };
  if (action === 'decline') return { answer: { action } };

  const known = new Set(schema.fields.map((field) => formFieldName(field.name)));
  const problems: AnswerProblem[] = Object.keys(fields)
    .filter((name) => !known.has(name) && !PAGE_FIELDS.has(name))
    .map((name) => ({ path: name, message: 'is not a field of this question' }));
  const content: Record<string, FieldValue> = {};
  for (const field of schema.fields) {
    const path = formFieldName(field.name);
    const converted = convert(field, valuesOf(fields[path]));
    if (converted.problem) problems.push({ path, message: converted.problem });
    else if (converted.value !== undefined) content[field.name] = converted.value;
  }
  const answer: ElicitAnswer = { action, content };
  // A field that could not be converted is missing from content; its conversion problem says why, not "is required".
  const unconverted = new Set(problems.map((problem) => problem.path));
  problems.push(...checkAnswerContent(requestedSchema, answer).filter((problem) => !unconverted.has(problem.path)));
  return problems.length > 0 ? { problems } : { answer };
}
