/**
 * HTML built by one tagged template that escapes every interpolation, so a handler's message, a
 * caller's argument or an option's title can never become markup on the answer page. Only what is
 * already `Html` (another template's result, or `raw` for a constant the page itself writes) goes
 * in as it is.
 */

/** Markup that is safe to insert as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What a template takes: text (escaped), markup, nothing (`undefined`, `null`, `false`), or a list of these. */
export type Interpolation = string | number | Html | undefined | null | false | readonly Interpolation[];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` as HTML text or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);
}

/** Markup the page writes itself, inserted unescaped. Never for anything a handler, a caller or a person wrote. */
export function raw(markup: string): Html {
  return new Html(markup);
}

function render(value: Interpolation): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** A template whose interpolations are escaped (lists joined, nothing left out). */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  return new Html(strings.reduce((out, text, index) => out + render(values[index - 1]) + text));
}
