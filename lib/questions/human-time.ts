/**
 * The one way a person is shown a time, wherever they read it: the answer page, a refusal's message
 * (the page and the answer API say the same), the caller's "waiting until" line. Absolute, in UTC
 * (every reader sees the same instant, and the page has no script to localise it), to the second
 * (a question may wait only seconds). Machine fields (JSON, webhooks, the admin API) stay ISO 8601.
 * Pure, with no import: the workflow bundle may use it.
 */

/** `2026-05-01 13:45:07 UTC`. */
export function humanTime(at: number): string {
  const iso = new Date(at).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
