/**
 * The round deadline, one rule for every process: an ask's clock starts when it is recorded (when
 * the client can first see it), runs for the exchange's round timeout, and answers sent after it
 * are late. Pure, with no import: the activity that records an ask, the workflow and the API all
 * call these.
 *
 * - activities/run-round.ts sets the deadline (`deadlineOf`) in the transaction that records the ask;
 * - the workflow is the authority on lateness: its timer fires at the deadline and its state refuses
 *   answers sent after it (`isLate`, workflows/exchange-state.ts), whatever order an activation
 *   applies them in;
 * - the API uses the same `isLate` as a fast pre-check, so a late answer is refused with a clear
 *   error before anything is signalled (the 2026-07-28 leg, a legacy response).
 */

/** The deadline of an ask recorded at `askedAt` (epoch ms). */
export function deadlineOf(askedAt: number, roundTimeoutMs: number): number {
  return askedAt + roundTimeoutMs;
}

/**
 * The deadline the workflow waits to, for an ask that recorded `recorded` (an ask recorded before
 * deadlines existed has none: its clock starts when the workflow sees it, `now`).
 */
export function awaitedDeadline(recorded: number | undefined, now: number, roundTimeoutMs: number): number {
  return recorded ?? deadlineOf(now, roundTimeoutMs);
}

/**
 * When the wait for an ask's answers began: when the ask was recorded, or, for an ask recorded
 * before its description carried that time, its deadline less the round timeout.
 */
export function waitingSinceOf(askedAt: number | undefined, deadlineAt: number, roundTimeoutMs: number): number {
  return askedAt ?? deadlineAt - roundTimeoutMs;
}

/** The round timeout an ask was given, from its deadline and when it was recorded. */
export function roundTimeoutOf(deadlineAt: number, askedAt: number): number {
  return deadlineAt - askedAt;
}

/**
 * Whether answers sent at `sentAt` are late for an ask due at `deadlineAt`. Without a deadline (an
 * ask recorded before deadlines existed, or one not yet known) or a send time (answers signalled
 * before they carried one), they count as in time.
 */
export function isLate(deadlineAt: number | undefined, sentAt: number | undefined): boolean {
  return deadlineAt !== undefined && sentAt !== undefined && sentAt > deadlineAt;
}
