/**
 * How long one round's calls to an upstream may take at worst: every attempt up to its
 * `callTimeoutMs`, and the pauses between them. It must fit in the round's own bound
 * (HANDLER_TIMEOUT_MS), or a slow upstream would end the exchange with the handler's timeout
 * instead of the documented tool error; the service refuses to start with a declaration that
 * does not fit. Pure.
 */

/** The pause before retry `attempt` (0 first): 250 ms, then 1 s, then 2 s. */
export const retryPauseMs = (attempt: number) => Math.min(250 * 4 ** attempt, 2_000);

export function callBudgetMs(upstream: { callTimeoutMs: number; retries: number }): number {
  let total = (upstream.retries + 1) * upstream.callTimeoutMs;
  for (let attempt = 0; attempt < upstream.retries; attempt++) total += retryPauseMs(attempt);
  return total;
}

/** Why `upstream`'s calls cannot fit in a round of `handlerTimeoutMs`, or undefined when they do. */
export function callBudgetProblem(
  upstream: { name: string; callTimeoutMs: number; retries: number },
  handlerTimeoutMs: number,
): string | undefined {
  const budget = callBudgetMs(upstream);
  if (budget < handlerTimeoutMs) return undefined;
  return `upstream ${upstream.name}: its calls may take ${budget} ms (callTimeoutMs ${upstream.callTimeoutMs} x ${upstream.retries + 1} attempts, and the pauses between them), not under HANDLER_TIMEOUT_MS (${handlerTimeoutMs} ms): lower callTimeoutMs or retries, or raise HANDLER_TIMEOUT_MS`;
}
