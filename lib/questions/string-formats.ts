/**
 * The four string formats of MCP's restricted elicitation schema, checked as JSON Schema defines
 * them (RFC 5321 addresses in the common form, RFC 3986 absolute URIs, RFC 3339 full dates and
 * date-times), so an answer the page or the API accepts is one a handler validating with a JSON
 * Schema library (the SDK's ajv) accepts too.
 */
import type { StringFormat } from './requested-field';

// ajv-formats' `email`: a dot-atom local part, and a domain of at least two labels.
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const URI_SCHEME = /^[a-z][a-z0-9+.-]*:\S*$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

/** A real calendar day (no 31 April, 29 February only in leap years). */
export function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An RFC 3339 date-time: a full date, a time with seconds, and an offset (`Z` or `±hh:mm`). */
export function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  if (!match) return false;
  const [, date, hours, minutes, seconds, offsetHours, offsetMinutes] = match;
  if (!isDate(date!) || Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 60) return false;
  return offsetHours === undefined || (Number(offsetHours) <= 23 && Number(offsetMinutes) <= 59);
}

export function isEmail(text: string): boolean {
  return EMAIL.test(text);
}

/** An absolute URI: a scheme, and nothing a URL parser refuses. */
export function isUri(text: string): boolean {
  return URI_SCHEME.test(text) && URL.canParse(text);
}

/** Whether `text` is in `format`. */
export function matchesFormat(text: string, format: StringFormat): boolean {
  switch (format) {
    case 'email':
      return isEmail(text);
    case 'uri':
      return isUri(text);
    case 'date':
      return isDate(text);
    case 'date-time':
      return isDateTime(text);
  }
}

/** How a format is named to a person. */
export const FORMAT_NAMES: Record<StringFormat, string> = {
  email: 'an email address',
  uri: 'an absolute URI (such as https://example.com/)',
  date: 'a date (YYYY-MM-DD)',
  'date-time': 'a date and time (RFC 3339, such as 2026-05-01T13:45:00Z)',
};
