/**
 * The capacity budgets of the legs, each answered with a clear error (`capacityExceeded`, with the
 * seconds to wait before trying again): legs waiting in this process at once (MAX_INFLIGHT_LEGS), and
 * of one authenticated principal (MAX_INFLIGHT_LEGS_PER_PRINCIPAL, so one caller's flood leaves room
 * for everyone else's legs),
 * running exchanges of the deployment (MAX_RUNNING_EXCHANGES) and of one authenticated principal
 * (MAX_RUNNING_EXCHANGES_PER_PRINCIPAL; the anonymous principal is every caller at once, so only
 * the deployment's budget counts it). The running exchanges are counted by Postgres as an
 * exchange's row is written; this module says which budget applies and what a full one answers.
 */
import type { ExchangeRoom } from '../../../../lib/db/exchange-store';
import { ANONYMOUS_PRINCIPAL_ID, type Principal } from '../../../../lib/exchange/principal';
import { capacityExceeded } from '../../../../lib/protocol/error-catalog';
import type { LegLimits } from './leg-types';

type CapacityLimits = Pick<
  LegLimits,
  | 'maxInflightLegs'
  | 'maxInflightLegsPerPrincipal'
  | 'maxRunningExchanges'
  | 'maxRunningExchangesPerPrincipal'
  | 'capacityRetryAfterS'
>;

/** The running exchanges `principal` may have, or undefined when only the deployment's budget counts. */
export function principalBudget(principal: Principal, limits: CapacityLimits): number | undefined {
  return principal.id === ANONYMOUS_PRINCIPAL_ID ? undefined : limits.maxRunningExchangesPerPrincipal;
}

/** Refuses an exchange whose row found no room under a budget of running exchanges. */
export function refuseFullRoom(room: ExchangeRoom, limits: CapacityLimits): void {
  if (room === 'full') {
    throw capacityExceeded('too many running exchanges', limits.maxRunningExchanges, limits.capacityRetryAfterS);
  }
  if (room === 'full-for-principal') {
    const limit = limits.maxRunningExchangesPerPrincipal;
    throw capacityExceeded('running exchanges of this principal', limit, limits.capacityRetryAfterS);
  }
}

/**
 * At most `maxInflightLegs` legs wait in this process at once, and at most
 * `maxInflightLegsPerPrincipal` of one authenticated principal: `run` refuses the one over either.
 * The anonymous principal is every caller at once, so only the process's budget counts it.
 */
export function createInflightGate(limits: CapacityLimits) {
  let inflight = 0;
  const byPrincipal = new Map<string, number>();
  return async function run<T>(principal: Principal, work: () => Promise<T>): Promise<T> {
    if (inflight >= limits.maxInflightLegs) {
      throw capacityExceeded(
        'too many requests in progress on this server',
        limits.maxInflightLegs,
        limits.capacityRetryAfterS,
      );
    }
    const counted = principal.id === ANONYMOUS_PRINCIPAL_ID ? undefined : principal.id;
    const own = counted === undefined ? 0 : (byPrincipal.get(counted) ?? 0);
    if (counted !== undefined && own >= limits.maxInflightLegsPerPrincipal) {
      throw capacityExceeded(
        'requests in progress of this principal on this server',
        limits.maxInflightLegsPerPrincipal,
        limits.capacityRetryAfterS,
      );
    }
    inflight += 1;
    if (counted !== undefined) byPrincipal.set(counted, own + 1);
    try {
      return await work();
    } finally {
      inflight -= 1;
      if (counted !== undefined) {
        const left = byPrincipal.get(counted)! - 1;
        if (left === 0) byPrincipal.delete(counted);
        else byPrincipal.set(counted, left);
      }
    }
  };
}
