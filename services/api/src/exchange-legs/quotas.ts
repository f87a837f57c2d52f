/**
 * The quotas of calls, at the one place every new exchange starts from (start-leg.ts), before its
 * row is written or its workflow started: the call is taken from each counter it counts against
 * (lib/quotas/quota-counters.ts) in one Postgres statement shared by every replica, or refused with
 * `quotaExceeded` (429, `Retry-After`) and counted in `mcp_quota_refusals_total`. Later legs of a
 * started exchange never come here. A call taken whose exchange then does not start (a capacity
 * budget, or Temporal, refused it) is given back, so only started exchanges and joined repeats count.
 */
import type { QuotaCounterStore } from '../../../../lib/db/quota-counters-pg';
import type { Logger } from '../../../../lib/log';
import { apiMetrics } from '../../../../lib/metrics/api-metrics';
import { quotaExceeded } from '../../../../lib/protocol/error-catalog';
import { countersFor, refusalOf, type QuotaRules } from '../../../../lib/quotas/quota-counters';
import type { Principal } from '../../../../lib/exchange/principal';
import type { OriginalRequest } from '../../../../lib/exchange/types';

/** A call taken from its quotas: `giveBack` returns it when its exchange did not start after all. */
export interface TakenCall {
  giveBack(): Promise<void>;
}

const NOTHING_TAKEN: TakenCall = { giveBack: async () => undefined };

export interface QuotaGate {
  /** Takes a first leg's call (its caller, its request) from its quotas, or throws the refusal of the first full one. */
  take(principal: Principal, request: Pick<OriginalRequest, 'method' | 'target'>): Promise<TakenCall>;
}

export function createQuotaGate(rules: QuotaRules, store: QuotaCounterStore, log: Logger): QuotaGate {
  return {
    async take(principal, request) {
      const counters = countersFor(rules, {
        principal: principal.id,
        ...(principal.tenant !== undefined ? { tenant: principal.tenant } : {}),
        method: request.method,
        target: request.target,
      });
      if (counters.length === 0) return NOTHING_TAKEN;
      const take = await store.take(counters);
      if (take.taken) {
        return {
          giveBack: () =>
            store.giveBack(counters, take.takenAt).catch((error: unknown) => {
              log.warn({ err: error }, 'a call refused after its quotas took it was not given back');
            }),
        };
      }
      const refusal = refusalOf(take.refused, take.windowStart, take.takenAt);
      apiMetrics.quotaRefused(refusal.quota, refusal.window);
      log.info(
        { quota: refusal.quota, window: refusal.window, limit: refusal.limit, principal: principal.id },
        'call refused: quota used up',
      );
      throw quotaExceeded(refusal);
    },
  };
}
