/**
 * One field of the answer form, as the input that fits its kind: a text input typed by its format
 * (email, url, date, datetime-local in UTC), a number input (`step=1` for integers), a checkbox for
 * a boolean, radios or a select for a single choice, checkboxes for a multi-select. Each has its
 * `<label for>` (a `<legend>` for a group), its hints and its errors tied to it by
 * `aria-describedby`, and the constraints the browser can check before the server does.
 */
import type { RequestedField } from '../../../../../lib/questions/requested-field';
import type { FieldState } from './field-state';
import { html, type Html, type Interpolation } from './html';
import { visibleText } from './visible-text';

/** At most this many options show as radios; more as a select. */
const MAX_RADIOS = 5;
const INPUT_TYPES = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const;

const attribute = (name: string, value: string | number | undefined) =>
  value === undefined ? undefined : html` ${name}="${String(value)}"`;
const flag = (name: string, on: boolean) => (on ? html` ${name}` : undefined);

/** The constraints a person should know beyond the title, in words. */
function rules(field: RequestedField): string[] {
  const rules: string[] = [];
  if (field.kind === 'text') {
    if (field.minLength !== undefined && field.maxLength !== undefined) {
      rules.push(`${field.minLength} to ${field.maxLength} characters.`);
    } else if (field.minLength !== undefined) rules.push(`At least ${field.minLength} characters.`);
    else if (field.maxLength !== undefined) rules.push(`At most ${field.maxLength} characters.`);
    if (field.format === 'date-time') rules.push('In UTC.');
  }
  if (field.kind === 'number') {
    if (field.integer) rules.push('A whole number.');
    if (field.minimum !== undefined) rules.push(`At least ${field.minimum}.`);
    if (field.maximum !== undefined) rules.push(`At most ${field.maximum}.`);
  }
  if (field.kind === 'choices') {
    if (field.minItems !== undefined) rules.push(`Choose at least ${field.minItems}.`);
    if (field.maxItems !== undefined) rules.push(`Choose at most ${field.maxItems}.`);
  }
  return rules;
}

/** The hint under the title: the field's description (as the handler wrote it), then its rules. */
function hint(field: RequestedField, id: string): Html | undefined {
  const words = rules(field).join(' ');
  if (!field.description && !words) return undefined;
  const both = field.description && words ? html`<br>` : undefined;
  const description = field.description !== undefined ? visibleText(field.description, { lines: true }) : undefined;
  return html`<p class="hint" id="${id}-hint">${description}${both}${words}</p>`;
}

function described(state: FieldState, hasHints: boolean): Html | undefined {
  const invalid = state.problems.length > 0;
  const ids = [hasHints ? `${state.id}-hint` : '', invalid ? `${state.id}-error` : ''].filter(Boolean).join(' ');
  return html`${attribute('aria-describedby', ids || undefined)}${invalid ? attribute('aria-invalid', 'true') : undefined}`;
}

function options(
  field: RequestedField & { options: Array<{ value: string; title: string }> },
  state: FieldState,
  type: 'radio' | 'checkbox',
  aria: Html | undefined,
): Html {
  return html`${field.options.map((option, index) => {
    const id = `${state.id}-${index}`;
    const on = state.values.includes(option.value);
    return html`<label class="option" for="${id}"><input type="${type}" id="${id}" name="${state.name}" value="${option.value}"${aria}${flag('checked', on)}${flag('required', type === 'radio' && field.required)}> ${visibleText(option.title)}</label>`;
  })}`;
}

function control(field: RequestedField, state: FieldState, aria: Html | undefined): Interpolation {
  const value = state.values[0];
  const common = html`id="${state.id}" name="${state.name}"${aria}`;
  switch (field.kind) {
    case 'text': {
      const type = field.format ? INPUT_TYPES[field.format] : 'text';
      const seconds = field.format === 'date-time' ? attribute('step', 1) : undefined;
      return html`<input type="${type}" ${common}${attribute('value', value)}${attribute('minlength', field.minLength)}${attribute('maxlength', field.maxLength)}${seconds}${flag('required', field.required)}>`;
    }
    case 'number':
      return html`<input type="number" ${common}${attribute('value', value)}${attribute('step', field.integer ? 1 : 'any')}${attribute('min', field.minimum)}${attribute('max', field.maximum)}${flag('required', field.required)}>`;
    case 'boolean':
      return html`<input type="checkbox" ${common} value="true"${flag('checked', state.checked)}>`;
    case 'choice': {
      if (field.required && field.options.length <= MAX_RADIOS) return options(field, state, 'radio', aria);
      const placeholder =
        field.required && value !== undefined
          ? undefined
          : html`<option value="">${field.required ? 'Choose…' : '(none)'}</option>`;
      const choices = field.options.map(
        (option) =>
          html`<option value="${option.value}"${flag('selected', option.value === value)}>${visibleText(option.title)}</option>`,
      );
      return html`<select ${common}${flag('required', field.required)}>${placeholder}${choices}</select>`;
    }
    case 'choices':
      return options(field, state, 'checkbox', aria);
  }
}

/** The field's markup: its label or legend, its hints, its control, and its errors. */
export function renderField(field: RequestedField, state: FieldState): Html {
  const hintText = hint(field, state.id);
  const aria = described(state, hintText !== undefined);
  // A required boolean is answered by leaving it unticked too, so it is not marked required.
  const marked = field.required && field.kind !== 'boolean';
  const title = html`${visibleText(field.title ?? field.name)}${marked ? ' (required)' : undefined}`;
  const messages = visibleText(state.problems.map((problem) => problem.message).join('; '));
  const errors = messages ? html`<p class="error" id="${state.id}-error">${messages}</p>` : undefined;
  const group =
    field.kind === 'choices' || (field.kind === 'choice' && field.required && field.options.length <= MAX_RADIOS);
  if (group) {
    return html`<fieldset class="field"><legend>${title}</legend>${hintText}${errors}${control(field, state, aria)}</fieldset>`;
  }
  if (field.kind === 'boolean') {
    return html`<div class="field"><label class="option" for="${state.id}">${control(field, state, aria)} ${title}</label>${hintText}${errors}</div>`;
  }
  return html`<div class="field"><label for="${state.id}">${title}</label>${hintText}${errors}${control(field, state, aria)}</div>`;
}
