/**
 * The `subscriptions/listen` streams this API process holds open, counted against two budgets:
 * streams per process (MAX_OPEN_SUBSCRIPTIONS: each is a socket held for as long as its client
 * listens) and streams per principal (MAX_OPEN_SUBSCRIPTIONS_PER_PRINCIPAL: one client must not
 * take them all). In memory on purpose: a stream lives exactly as long as this process's socket.
 */
import { capacityExceeded } from '../../../../lib/protocol/error-catalog';

export interface ListenLimits {
  maxOpenSubscriptions: number;
  maxOpenSubscriptionsPerPrincipal: number;
  capacityRetryAfterS: number;
}

export interface ListenBudget {
  /** Takes a slot for one of `principal`'s listens, or throws -32000 (HTTP 429); call the result once it ended. */
  take(principal: string): () => void;
  readonly open: number;
}

export function createListenBudget(limits: ListenLimits): ListenBudget {
  const { maxOpenSubscriptions, maxOpenSubscriptionsPerPrincipal, capacityRetryAfterS } = limits;
  const perPrincipal = new Map<string, number>();
  let open = 0;
  return {
    take(principal) {
      if (open >= maxOpenSubscriptions)
        throw capacityExceeded('open subscriptions on this server', maxOpenSubscriptions, capacityRetryAfterS);
      const held = perPrincipal.get(principal) ?? 0;
      if (held >= maxOpenSubscriptionsPerPrincipal)
        throw capacityExceeded(
          'open subscriptions of this principal',
          maxOpenSubscriptionsPerPrincipal,
          capacityRetryAfterS,
        );
      open += 1;
      perPrincipal.set(principal, held + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        open -= 1;
        const left = (perPrincipal.get(principal) ?? 1) - 1;
        if (left > 0) perPrincipal.set(principal, left);
        else perPrincipal.delete(principal);
      };
    },
    get open() {
      return open;
    },
  };
}
