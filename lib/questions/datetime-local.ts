/**
 * `date-time` fields on a page: an `<input type=datetime-local>` has no time zone and may omit the
 * seconds, while the answer must be RFC 3339. The page says the time is UTC, so both ways go
 * through UTC: a default is shown as its UTC wall time, and what is posted gets `Z`.
 */

const LOCAL = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?$/;

/** An RFC 3339 date-time as a datetime-local value (UTC wall time, seconds kept); undefined if unreadable. */
export function toDateTimeLocal(dateTime: string): string | undefined {
  const at = Date.parse(dateTime);
  return Number.isNaN(at) ? undefined : new Date(at).toISOString().slice(0, 19);
}

/** A posted datetime-local value as RFC 3339 in UTC; anything else as it was, for the format check to judge. */
export function fromDateTimeLocal(text: string): string {
  const match = LOCAL.exec(text);
  if (!match) return text;
  const [, date, hours, minutes, seconds = '00', fraction = ''] = match;
  return `${date}T${hours}:${minutes}:${seconds}${fraction}Z`;
}
