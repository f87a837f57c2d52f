/**
 * The budgets counted twice: across the deployment (MAX_RUNNING_EXCHANGES, MAX_OPEN_SESSIONS) and
 * for the caller's principal (MAX_RUNNING_EXCHANGES_PER_PRINCIPAL, MAX_OPEN_SESSIONS_PER_PRINCIPAL),
 * in one count. The anonymous principal (AUTH_MODE=off) is every caller at once, so only the
 * deployment's budget bounds it. Past either, the capacity error (429 with `Retry-After`).
 */
import type { Limits } from '../../../../lib/config';
import { ANONYMOUS_PRINCIPAL_ID, type Principal } from '../../../../lib/exchange/principal';
import { capacityExceeded } from '../../../../lib/protocol/error-catalog';

/** Each budget: what its refusals name, and the limits (lib/config.ts) that bound it. */
const BUDGETS = {
  runningExchanges: {
    what: ['too many running exchanges', 'running exchanges of this principal'],
    limits: ['maxRunningExchanges', 'maxRunningExchangesPerPrincipal'],
  },
  openSessions: {
    what: ['open sessions', 'open sessions of this principal'],
    limits: ['maxOpenSessions', 'maxOpenSessionsPerPrincipal'],
  },
} as const;

type Budget = keyof typeof BUDGETS;
type BudgetLimits<B extends Budget> = Pick<Limits, (typeof BUDGETS)[B]['limits'][number] | 'capacityRetryAfterS'>;

export interface BudgetCounts {
  /** Across the deployment. */
  all(): Promise<number>;
  /** Across the deployment, and those of one principal among them. */
  withPrincipal(principal: string): Promise<{ all: number; principal: number }>;
}

/** Throws the capacity error when `caller` may not have one more of what `counts` counts. */
export async function checkPrincipalBudget<B extends Budget>(
  budget: B,
  caller: Principal,
  limits: BudgetLimits<B>,
  counts: BudgetCounts,
): Promise<void> {
  const { what, limits: names } = BUDGETS[budget];
  const [limit, perPrincipal] = names.map((name) => (limits as Record<string, number>)[name]!);
  const anonymous = caller.id === ANONYMOUS_PRINCIPAL_ID;
  const counted = anonymous ? { all: await counts.all(), principal: 0 } : await counts.withPrincipal(caller.id);
  if (counted.all >= limit!) throw capacityExceeded(what[0], limit!, limits.capacityRetryAfterS);
  if (!anonymous && counted.principal >= perPrincipal!) {
    throw capacityExceeded(what[1], perPrincipal!, limits.capacityRetryAfterS);
  }
}
