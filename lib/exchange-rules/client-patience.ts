/**
 * How long a 2026-07-28 client's retry loop goes on before it gives up on a call, counted in the
 * results it is sent (the driver counts nothing else): the official drivers throw after 10
 * retries (the TypeScript client's `inputRequired.maxRounds`, Python's `input_required_max_rounds`),
 * state-only results included, and tell the server nothing. The Go SDK gives up after 10 results
 * in all, and after 3 state-only ones (`inputRequests: {}`, which it reads as load shedding).
 *
 * So the service counts the input-required results of each retry loop in its requestState and,
 * at the last one a client is known to take, sends a complete result instead (the pending result,
 * or the tool's error: lib/exchange/pending-result.ts). Pure.
 */

/**
 * Where one client's retry loop stops taking input-required results: the `legs`-th result of the
 * loop, and its `stateOnlyLegs`-th state-only one, must be complete.
 */
export interface Patience {
  legs: number;
  stateOnlyLegs: number;
}

/** The Go SDK's HTTP client names itself so unless its host set a User-Agent (mcp/mrtr.go). */
const GO_USER_AGENT = /^Go-http-client\//;
/** The Go SDK fails on its third state-only result (maxLoadSheddingMultiRoundTripRetries). */
const GO_STATE_ONLY_LEGS = 3;

/**
 * Where the loop of the client that sent a leg stops: at the `legs`-th result
 * (PENDING_RESULT_AT_LEG) for every client, sooner for the Go SDK's state-only results.
 */
export function patienceOf(userAgent: string | undefined, legs: number): Patience {
  const go = userAgent !== undefined && GO_USER_AGENT.test(userAgent);
  return { legs, stateOnlyLegs: go ? Math.min(legs, GO_STATE_ONLY_LEGS) : legs };
}

/**
 * How many input-required results a loop was sent before this leg (from the requestState it
 * echoed), and whether the loop joined a call another loop started (`joined`).
 */
export interface LegCount {
  legs: number;
  waits: number;
  joined?: true;
}

export const FIRST_LEG: LegCount = { legs: 0, waits: 0 };

/** The count after this leg's result, `stateOnly` or an ask. */
export function countedWith(count: LegCount, stateOnly: boolean): LegCount {
  return { ...count, legs: count.legs + 1, waits: count.waits + (stateOnly ? 1 : 0) };
}

/**
 * Whether this leg's input-required result (state-only or not) would be one its client no longer
 * takes: when it is, the call gets a complete result instead.
 */
export function outlastsPatience(count: LegCount, stateOnly: boolean, patience: Patience): boolean {
  const after = countedWith(count, stateOnly);
  return after.legs >= patience.legs || (stateOnly && after.waits >= patience.stateOnlyLegs);
}
