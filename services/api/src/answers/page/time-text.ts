/**
 * Times as the answer page shows them: absolute in UTC (every answerer reads the same time, and the
 * page has no script to localise it), and how long is left, in minutes while that is short.
 */
import { humanTime } from '../../../../../lib/questions/human-time';
import { html, type Html } from './html';

/** `2026-05-01 13:45:07 UTC` (lib/questions/human-time.ts, as refusals say it), in a `<time>` carrying the exact instant. */
export function utcTime(at: number): Html {
  return html`<time datetime="${new Date(at).toISOString()}">${humanTime(at)}</time>`;
}

/** `in 5 minutes`, `in 3 hours`, or `now` once the deadline has come. */
export function timeLeft(deadline: number, now: number): string {
  const minutes = Math.ceil((deadline - now) / 60_000);
  if (minutes <= 0) return 'now';
  if (minutes < 120) return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `in ${Math.round(minutes / 60)} hours`;
}
