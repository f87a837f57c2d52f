/**
 * The one place that decides an exchange's status from an outcome. Postgres, the `ExchangeStatus`
 * search attribute and what a client is answered all derive from the outcome through here, so they
 * cannot disagree. Pure: the workflow bundle imports it.
 */
import { EXCHANGE_CANCELLED, EXCHANGE_EXPIRED, EXCHANGE_TERMINATED, ROUND_CAP_EXCEEDED } from './ending-codes';
import type { ExchangeStatus, OutcomeKind } from './types';

const STATUS_OF_ERROR: Record<number, ExchangeStatus> = {
  [EXCHANGE_EXPIRED]: 'expired',
  [ROUND_CAP_EXCEEDED]: 'capped',
  [EXCHANGE_CANCELLED]: 'cancelled',
  [EXCHANGE_TERMINATED]: 'terminated',
};

export function exchangeStatusOf(outcome: { kind: OutcomeKind; errorCode?: number }): ExchangeStatus {
  if (outcome.kind === 'ask') return 'running';
  if (outcome.kind === 'complete') return 'completed';
  return (outcome.errorCode !== undefined && STATUS_OF_ERROR[outcome.errorCode]) || 'failed';
}

/** Statuses after which nothing more happens to an exchange. */
export function isFinal(status: ExchangeStatus): boolean {
  return status !== 'running';
}
