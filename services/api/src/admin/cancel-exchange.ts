/**
 * An operator's cancel from the admin API: the same `cancel` signal a legacy client's
 * `notifications/cancelled` sends, so the exchange ends exactly as a client cancel ends it (the
 * workflow records `-32012`, withdraws open server-to-client requests, answers the next leg). The
 * API then waits, up to its HTTP wait budget, for that ending to be recorded.
 */
import type { AdminStore, ExchangeSummary } from '../../../../lib/db/admin-store';
import type { ExchangeStore } from '../../../../lib/db/exchange-store';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import { isFinal } from '../../../../lib/exchange/exchange-status';
import type { ExchangeGateway } from '../../../../lib/exchange-client/exchange-gateway';
import type { ExchangeReconciler } from '../../../../lib/exchange-client/exchange-reconciler';

export interface CancelDeps {
  admin: AdminStore;
  store: ExchangeStore;
  gateway: ExchangeGateway;
  reconciler: ExchangeReconciler;
  waiter: OutcomeWaiter;
  /** How long to wait for the ending to be recorded before answering that it was requested. */
  waitMs: number;
}

export type CancelResult =
  /** No exchange has this id. */
  | { kind: 'not-found' }
  /** It had ended before (or Temporal had closed its workflow, whose ending is recorded now): nothing was signalled. */
  | { kind: 'already-ended'; exchange: ExchangeSummary }
  /** Signalled, and its ending is recorded (normally `cancelled`; a round that finished first may have ended it otherwise). */
  | { kind: 'ended'; exchange: ExchangeSummary }
  /** Signalled and durable in Temporal; no worker recorded the ending within the wait (it will when one runs). */
  | { kind: 'requested'; exchange: ExchangeSummary };

export async function cancelExchange(deps: CancelDeps, id: string, reason: string): Promise<CancelResult> {
  const before = await deps.admin.getExchange(id);
  if (!before) return { kind: 'not-found' };
  if (isFinal(before.exchange.status)) return { kind: 'already-ended', exchange: before.exchange };

  if (!(await deps.gateway.cancel(id, reason, 'operator'))) {
    // No running workflow took it: Temporal closed it without an ending, which is recorded now.
    await deps.reconciler.reconcile(id);
    const now = await deps.admin.getExchange(id);
    return { kind: 'already-ended', exchange: (now ?? before).exchange };
  }

  const deadline = Date.now() + deps.waitMs;
  for (;;) {
    const current = (await deps.admin.getExchange(id))?.exchange ?? before.exchange;
    if (isFinal(current.status)) return { kind: 'ended', exchange: current };
    const left = deadline - Date.now();
    if (left <= 0) return { kind: 'requested', exchange: current };
    // The ending is recorded as the round after the last one (or later, if a round finishes first).
    const last = await deps.store.lastRound(id);
    await deps.waiter.wait(id, (last?.round ?? 0) + 1, left);
  }
}
