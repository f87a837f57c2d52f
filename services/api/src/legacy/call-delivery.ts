/**
 * Delivers one call's stream on one connection, holding the call's delivery lease for that
 * connection meanwhile (renewed every third of DELIVERY_LEASE_MS, released at the end), so a plain
 * GET stream knows the call is taken and takes it over only once the connection died. While it
 * delivers, it asks Temporal now and then about a workflow that may have ended without recording it
 * (ending-watch.ts). The worker writes the stream; this only reads it.
 */
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import { DELIVERY_LEASE_MS, type LegacyCall, type LegacyStore } from '../../../../lib/db/legacy-store';
import type { ExchangeReconciler } from '../exchange-reconciler';
import { watchEndings } from './ending-watch';
import type { SseWriter } from './sse-writer';
import { deliverStream, type DeliveryEnd, type DeliveryOptions } from './stream-delivery';

export interface CallDeliveryDeps {
  legacy: LegacyStore;
  waiter: OutcomeWaiter;
  reconciler: ExchangeReconciler;
  /** How often (HTTP_WAIT_MS) a delivered call is checked with Temporal for an ending it did not record. */
  endingCheckMs: number;
}

export interface CallDeliveryOptions extends DeliveryOptions {
  /** The connection delivering, as the holder of the call's delivery lease. */
  owner: string;
  /** Take the lease even from another live connection (the client re-attached or resumed here). */
  takeOver?: boolean;
}

export function createCallDelivery(deps: CallDeliveryDeps) {
  const { legacy, waiter, reconciler, endingCheckMs } = deps;

  /** Delivers `call`'s stream after `afterId` on `sse` until it ends or `stop` aborts. */
  return async function deliverCall(
    call: LegacyCall,
    sse: SseWriter,
    afterId: number,
    stop: AbortSignal,
    options: CallDeliveryOptions,
  ): Promise<DeliveryEnd> {
    const local = new AbortController();
    const stopLocal = () => local.abort();
    stop.addEventListener('abort', stopLocal, { once: true });
    const renew = () => legacy.renewLease(call.exchangeId, options.owner, DELIVERY_LEASE_MS).catch(() => undefined);
    await legacy.renewLease(call.exchangeId, options.owner, DELIVERY_LEASE_MS, options.takeOver).catch(() => undefined);
    const renewal = setInterval(renew, DELIVERY_LEASE_MS / 3);
    renewal.unref();
    watchEndings(reconciler, async () => [call.exchangeId], endingCheckMs, local.signal);
    try {
      return await deliverStream({ legacy, waiter }, call.streamId, afterId, sse, local.signal, options);
    } finally {
      clearInterval(renewal);
      await legacy.releaseLease(call.exchangeId, options.owner).catch(() => undefined);
      stop.removeEventListener('abort', stopLocal);
      local.abort();
    }
  };
}

export type DeliverCall = ReturnType<typeof createCallDelivery>;
