/**
 * Times as the answer page shows them: absolute in UTC (every answerer reads the same time, and the
 * page has no script to localise it), and how long is left, in minutes while that is short.
 */
import { html, type Html } from './html';

/** `2026-05-01 13:45 UTC`, in a `<time>` carrying the exact instant. */
export function utcTime(at: number): Html {
  const iso = new Date(at).toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`;
}

/** `in 5 minutes`, `in 3 hours`, or `now` once the deadline has come. */
export function timeLeft(deadline: number, now: number): string {
  const minutes = Math.ceil((deadline - now) / 60_000);
  if (minutes <= 0) return 'now';
  if (minutes < 120) return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `in ${Math.round(minutes / 60)} hours`;
}
