/**
 * How long one round's calls to an upstream may take at worst: every attempt up to its
 * `callTimeoutMs`, and the pauses between them. It must fit in the round's own bound, or a slow
 * upstream would end the exchange with the handler's timeout instead of the documented tool error:
 * HANDLER_TIMEOUT_MS for rounds run as regular activities, LOCAL_HANDLER_TIMEOUT_MS for rounds run
 * as local ones (`roundActivity: 'local'`). The service refuses to start with a declaration that
 * does not fit, and `durable-mcp check --upstreams` says so. Pure.
 */

/** The pause before retry `attempt` (0 first): 250 ms, then 1 s, then 2 s. */
export const retryPauseMs = (attempt: number) => Math.min(250 * 4 ** attempt, 2_000);

export function callBudgetMs(upstream: { callTimeoutMs: number; retries: number }): number {
  let total = (upstream.retries + 1) * upstream.callTimeoutMs;
  for (let attempt = 0; attempt < upstream.retries; attempt++) total += retryPauseMs(attempt);
  return total;
}

/** The bounds of one handler execution, as the worker applies them to a round. */
export interface RoundBounds {
  /** HANDLER_TIMEOUT_MS: a round run as a regular activity. */
  handlerTimeoutMs: number;
  /** LOCAL_HANDLER_TIMEOUT_MS: a round run as a local activity. */
  localHandlerTimeoutMs: number;
}

export interface BudgetedUpstream {
  name: string;
  callTimeoutMs: number;
  retries: number;
  roundActivity: 'regular' | 'local';
}

/** Why `upstream`'s calls cannot fit in one of its rounds, or undefined when they do. */
export function callBudgetProblem(upstream: BudgetedUpstream, bounds: RoundBounds): string | undefined {
  const budget = callBudgetMs(upstream);
  const local = upstream.roundActivity === 'local';
  const bound = local ? bounds.localHandlerTimeoutMs : bounds.handlerTimeoutMs;
  if (budget < bound) return undefined;
  const calls = `upstream ${upstream.name}: its calls may take ${budget} ms (callTimeoutMs ${upstream.callTimeoutMs} x ${upstream.retries + 1} attempts, and the pauses between them)`;
  if (!local)
    return `${calls}, not under HANDLER_TIMEOUT_MS (${bound} ms): lower callTimeoutMs or retries, or raise HANDLER_TIMEOUT_MS`;
  return `${calls}, not under LOCAL_HANDLER_TIMEOUT_MS (${bound} ms), the bound of its rounds as local activities (roundActivity 'local'): lower callTimeoutMs or retries, raise LOCAL_HANDLER_TIMEOUT_MS (at most 50000), or run its rounds as regular activities (roundActivity 'regular', under HANDLER_TIMEOUT_MS)`;
}

/** The first of `upstreams` whose calls do not fit its rounds, said as `callBudgetProblem` says it. */
export function upstreamsBudgetProblem(
  upstreams: readonly BudgetedUpstream[],
  bounds: RoundBounds,
): string | undefined {
  return upstreams.map((upstream) => callBudgetProblem(upstream, bounds)).find(Boolean);
}
