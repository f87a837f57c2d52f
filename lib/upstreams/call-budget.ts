/**
 * How long one round of an upstream may take at worst: the longest wait on a decision point one of
 * its policies asks first (its `timeoutMs`), then every attempt of the call up to its
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
  /** Its policies: one that asks a decision point waits up to its `timeoutMs` before the call, in the same round. */
  policies?: ReadonlyArray<object>;
}

/** The longest a round of `upstream` may wait on a decision point before it calls (0: none asked). */
export const decisionBudgetMs = (upstream: Pick<BudgetedUpstream, 'policies'>): number =>
  Math.max(0, ...(upstream.policies ?? []).map((policy) => (isDecided(policy) ? policy.decide.timeoutMs : 0)));

const isDecided = (policy: object): policy is { decide: { timeoutMs: number } } => 'decide' in policy;

/** Why `upstream`'s calls cannot fit in one of its rounds, or undefined when they do. */
export function callBudgetProblem(upstream: BudgetedUpstream, bounds: RoundBounds): string | undefined {
  const decision = decisionBudgetMs(upstream);
  const budget = callBudgetMs(upstream) + decision;
  const local = upstream.roundActivity === 'local';
  const bound = local ? bounds.localHandlerTimeoutMs : bounds.handlerTimeoutMs;
  if (budget < bound) return undefined;
  const asked = decision > 0 ? `, after up to ${decision} ms for a decision point (a policy's decide.timeoutMs)` : '';
  const takes = decision > 0 ? 'a round may take' : 'its calls may take';
  const calls = `upstream ${upstream.name}: ${takes} ${budget} ms (callTimeoutMs ${upstream.callTimeoutMs} x ${upstream.retries + 1} attempts, and the pauses between them${asked})`;
  if (!local)
    return `${calls}, not under HANDLER_TIMEOUT_MS (${bound} ms): lower callTimeoutMs or retries${decision > 0 ? ' or decide.timeoutMs' : ''}, or raise HANDLER_TIMEOUT_MS`;
  return `${calls}, not under LOCAL_HANDLER_TIMEOUT_MS (${bound} ms), the bound of its rounds as local activities (roundActivity 'local'): lower callTimeoutMs or retries${decision > 0 ? ' or decide.timeoutMs' : ''}, raise LOCAL_HANDLER_TIMEOUT_MS (at most 50000), or run its rounds as regular activities (roundActivity 'regular', under HANDLER_TIMEOUT_MS)`;
}

/** The first of `upstreams` whose calls do not fit its rounds, said as `callBudgetProblem` says it. */
export function upstreamsBudgetProblem(
  upstreams: readonly BudgetedUpstream[],
  bounds: RoundBounds,
): string | undefined {
  return upstreams.map((upstream) => callBudgetProblem(upstream, bounds)).find(Boolean);
}
