/**
 * One argument of a call as an approver reads it: its JSON, whole (an object or a list laid out
 * on lines), with what is invisible made visible (visible-text.ts). A long value is folded, not
 * cut: a `<details>` whose summary says how long it is and begins it, and which opens to all of it,
 * so nothing the call carries is kept from the person who approves it. Pure.
 */
import { html, type Html } from './html';
import { visibleText } from './visible-text';

/** A value longer than this (code points), or on more lines, is folded. */
export const FOLD_CHARS = 200;
export const FOLD_LINES = 8;
/** How much of a folded value its summary shows. */
export const FOLDED_PREVIEW_CHARS = 80;

/** `value` as JSON for a person: a string or number on one line, an object or list indented. */
export function argumentJson(value: unknown): string {
  const flat = JSON.stringify(value);
  if (flat === undefined) return String(value);
  return typeof value === 'object' && value !== null ? JSON.stringify(value, null, 2) : flat;
}

/** Whether a value's shown text is long enough to fold. */
export function folds(text: string): boolean {
  return Array.from(text).length > FOLD_CHARS || text.split('\n').length > FOLD_LINES;
}

const count = (n: number) => n.toLocaleString('en-US');

/** The markup of one argument's value: whole, and folded when long. */
export function renderArgumentValue(value: unknown): Html {
  const shown = visibleText(argumentJson(value), { lines: true });
  if (!folds(shown)) return html`<pre class="value"><code>${shown}</code></pre>`;
  const chars = Array.from(shown);
  const lines = shown.split('\n').length;
  const size =
    lines > 1 ? `${count(chars.length)} characters, ${count(lines)} lines` : `${count(chars.length)} characters`;
  const preview = chars.slice(0, FOLDED_PREVIEW_CHARS).join('').split('\n')[0]!;
  return html`<details class="value"><summary><code>${preview}</code>… (${size}: open to read it whole)</summary><pre class="value"><code>${shown}</code></pre></details>`;
}
