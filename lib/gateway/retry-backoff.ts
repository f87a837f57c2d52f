/**
 * How long to wait before trying again after the `attempt`-th failure in a row (0 for the first):
 * growing by `factor` from `initialMs` up to `maxMs`, each wait drawn between half of that and all
 * of it, so the replicas of a service that lost the same upstream at the same moment do not all
 * come back at once. Pure: `random` is Math.random unless a test fixes it.
 */
export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
  factor: number;
}

export function backoffDelay(attempt: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
