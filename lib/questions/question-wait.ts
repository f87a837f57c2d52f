/**
 * How long an addressed question waits, and what the end of its wait does: the rules the worker's
 * round (its deadline), the workflow (what an expiry leads to) and the test harness apply alike.
 * Pure, with no Temporal, pg or express import: the workflow bundle imports this file.
 */
import { addressedKeys, addressingOf } from './addressing';
import type { Addressing } from './question';

/** How long a question waits: its own `waitMs`, else the round timeout, never past `maxWaitMs`. */
export const questionWaitMs = (addressing: Addressing, roundTimeoutMs: number, maxWaitMs: number): number =>
  Math.min(addressing.waitMs ?? roundTimeoutMs, maxWaitMs);

/** The wait of an addressed ask: its longest question's (they share the round's deadline). */
export function addressedAskWaitMs(
  inputRequests: Record<string, unknown>,
  roundTimeoutMs: number,
  maxWaitMs: number,
): number | undefined {
  const waits = addressedKeys(inputRequests).map((key) =>
    questionWaitMs(addressingOf(inputRequests[key])!, roundTimeoutMs, maxWaitMs),
  );
  return waits.length > 0 ? Math.max(...waits) : undefined;
}

/**
 * Whether the end of an addressed ask's wait runs its handler again (`onExpiry: 'handler'`, which
 * every question of the ask shares: addressed-ask-check.ts) instead of ending its exchange. Takes
 * the ask's questions by key (`RoundSummary.questions`).
 */
export function expiryReachesHandler(questions: Record<string, Addressing> | undefined): boolean {
  const addressings = Object.values(questions ?? {});
  return addressings.length > 0 && addressings.every((addressing) => addressing.onExpiry === 'handler');
}
