/**
 * Holds one connection's delivery lease of a call while it delivers: renews it every third of
 * DELIVERY_LEASE_MS, and at once when another connection announces it took the call over
 * (DELIVERY_TAKEN_CHANNEL: a client's resumption by Last-Event-ID, a re-sent request id, a GET
 * stream claiming a lease that lapsed). A renewal that finds the lease in other hands resolves
 * 'lost', so the delivery stops before it writes anything the new holder writes too: a request
 * never goes out on two streams.
 */
import { DELIVERY_LEASE_MS, DELIVERY_TAKEN_CHANNEL, type LegacyStore } from '../../../../lib/db/legacy-store';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';

export interface LeaseHoldDeps {
  legacy: Pick<LegacyStore, 'renewLease'>;
  waiter: Pick<OutcomeWaiter, 'waitFor'>;
}

/** Resolves 'lost' once another connection holds the lease, 'ended' once `stop` aborts. */
export async function holdLease(
  deps: LeaseHoldDeps,
  exchangeId: string,
  owner: string,
  stop: AbortSignal,
): Promise<'lost' | 'ended'> {
  const { legacy, waiter } = deps;
  // "Found" is the lease lost; a renewal that fails (Postgres away) is "not yet", and the waiter
  // tries again: the lease is not given up for a hiccup, only when someone else has it.
  const renewFindingLoss = async () =>
    (await legacy.renewLease(exchangeId, owner, DELIVERY_LEASE_MS)) ? undefined : true;
  while (!stop.aborted) {
    // `absent`: the lease was just taken or renewed, so the next renewal is due at the end of the
    // period (the waiter's last look), or sooner when a takeover is announced.
    const lost = await waiter.waitFor(
      DELIVERY_TAKEN_CHANNEL,
      exchangeId,
      renewFindingLoss,
      DELIVERY_LEASE_MS / 3,
      stop,
      {
        absent: true,
      },
    );
    if (lost) return 'lost';
  }
  return 'ended';
}
