/**
 * Things this API process holds open for as long as a client keeps a socket (SSE streams, listens),
 * counted against two budgets: in all, and per owner (a session, a principal), so one client cannot
 * take them all. In memory on purpose: what is held lives exactly as long as this process's socket.
 */
import { capacityExceeded } from '../../../../lib/protocol/error-catalog';

export interface HeldSlotLimits {
  /** At most this many held at once in this process, named `totalWhat` in the refusal. */
  total: number;
  totalWhat: string;
  /** At most this many held by one owner, named `perOwnerWhat` in the refusal. */
  perOwner: number;
  perOwnerWhat: string;
  capacityRetryAfterS: number;
  /** Told as each slot is taken and given back (metrics). */
  onTake?: () => void;
  onRelease?: () => void;
}

export interface HeldSlots {
  /** Takes a slot for one of `owner`'s, or throws -32000 (HTTP 429); call the result once it is let go. */
  take(owner: string): () => void;
  readonly open: number;
}

export function createHeldSlots(limits: HeldSlotLimits): HeldSlots {
  const perOwner = new Map<string, number>();
  let open = 0;
  return {
    take(owner) {
      if (open >= limits.total) throw capacityExceeded(limits.totalWhat, limits.total, limits.capacityRetryAfterS);
      const held = perOwner.get(owner) ?? 0;
      if (held >= limits.perOwner)
        throw capacityExceeded(limits.perOwnerWhat, limits.perOwner, limits.capacityRetryAfterS);
      open += 1;
      limits.onTake?.();
      perOwner.set(owner, held + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        open -= 1;
        limits.onRelease?.();
        const left = (perOwner.get(owner) ?? 1) - 1;
        if (left > 0) perOwner.set(owner, left);
        else perOwner.delete(owner);
      };
    },
    get open() {
      return open;
    },
  };
}
