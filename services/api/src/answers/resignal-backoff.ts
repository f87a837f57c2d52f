/**
 * When a claimed answer whose signal failed is tried again: after the re-signaller's own period
 * (QUESTION_RESIGNAL_AFTER_MS) the first time, twice as long after each further failure, never
 * more than an hour apart. So an answer that cannot be signalled (its workflow refuses the payload,
 * Temporal is down for long) is retried at a falling rate, never in a loop, until it is signalled
 * or its workflow is gone (its exchange ended: then it is marked, there is no one to tell). Pure.
 */

/** The longest wait between two tries of one answer. */
export const MAX_RESIGNAL_BACKOFF_MS = 3_600_000;

/** How long to wait before trying again an answer that has now failed `failures` times (1 or more). */
export function resignalBackoffMs(failures: number, afterMs: number): number {
  const doublings = Math.min(Math.max(failures, 1) - 1, 30);
  return Math.min(afterMs * 2 ** doublings, Math.max(afterMs, MAX_RESIGNAL_BACKOFF_MS));
}
