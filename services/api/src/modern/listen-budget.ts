/**
 * The `subscriptions/listen` streams this API process holds open, counted against two budgets:
 * streams per process (MAX_OPEN_SUBSCRIPTIONS: each is a socket held for as long as its client
 * listens) and streams per principal (MAX_OPEN_SUBSCRIPTIONS_PER_PRINCIPAL: one client must not
 * take them all).
 */
import { createHeldSlots, type HeldSlots } from '../http/held-slots';

export interface ListenLimits {
  maxOpenSubscriptions: number;
  maxOpenSubscriptionsPerPrincipal: number;
  capacityRetryAfterS: number;
}

/** `take(principal)` takes a slot for one of the principal's listens (HeldSlots). */
export type ListenBudget = HeldSlots;

export const createListenBudget = (limits: ListenLimits): ListenBudget =>
  createHeldSlots({
    total: limits.maxOpenSubscriptions,
    totalWhat: 'open subscriptions on this server',
    perOwner: limits.maxOpenSubscriptionsPerPrincipal,
    perOwnerWhat: 'open subscriptions of this principal',
    capacityRetryAfterS: limits.capacityRetryAfterS,
  });
