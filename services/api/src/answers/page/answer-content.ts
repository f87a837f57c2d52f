/**
 * What an answer said, as the page shows it once taken: each field of the form in the order the
 * handler wrote it, by its title, with the value as the answerer gave it (a choice by its option's
 * title, a yes or no, a free text whole, on its lines), everything through visible-text.ts. A key
 * the form does not have (none should reach here: content is checked against the schema) is shown
 * after the fields by its name. Pure.
 */
import type { ElicitAnswer } from '../../../../../lib/questions/question';
import type { RequestedField } from '../../../../../lib/questions/requested-field';
import { html, type Html } from './html';
import { visibleText } from './visible-text';

type Content = NonNullable<ElicitAnswer['content']>;
type Value = Content[string];

/** The title of `value` among a choice's options, else the value itself. */
const optionTitle = (field: RequestedField, value: string): string =>
  'options' in field ? (field.options.find((option) => option.value === value)?.title ?? value) : value;

/** One value as a person reads it. */
export function valueText(field: RequestedField | undefined, value: Value): string {
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map((item) => (field ? optionTitle(field, item) : item)).join(', ');
  if (typeof value === 'string' && field) return optionTitle(field, value);
  return String(value);
}

/** The answer's content, field by field in the form's order; nothing when it carried none. */
export function renderAnswerContent(fields: RequestedField[], content: Content | undefined): Html | undefined {
  if (content === undefined) return undefined;
  const known = fields.filter((field) => Object.hasOwn(content, field.name));
  const others = Object.keys(content).filter((name) => !fields.some((field) => field.name === name));
  const rows = [
    ...known.map((field) => [field.title ?? field.name, valueText(field, content[field.name]!)] as const),
    ...others.map((name) => [name, valueText(undefined, content[name]!)] as const),
  ];
  if (rows.length === 0) return html`<p class="hint">No field filled in.</p>`;
  return html`<dl class="answer">${rows.map(
    ([label, text]) =>
      html`<dt>${visibleText(label)}</dt><dd><span class="text">${visibleText(text, { lines: true })}</span></dd>`,
  )}</dl>`;
}
