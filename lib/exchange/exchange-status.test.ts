// Pins the status each kind of ending gives an exchange, which Postgres and the search attribute share.
import {
  EXCHANGE_CANCELLED,
  EXCHANGE_EXPIRED,
  EXCHANGE_TERMINATED,
  ROUND_CAP_EXCEEDED,
} from '../protocol/exchange-errors';
import { INTERNAL_ERROR, INVALID_PARAMS } from '../protocol/json-rpc-codes';
import { exchangeStatusOf, isFinal } from './exchange-status';

describe('exchangeStatusOf', () => {
  it.each([
    [{ kind: 'ask' as const }, 'running'],
    [{ kind: 'complete' as const }, 'completed'],
    [{ kind: 'error' as const, errorCode: EXCHANGE_EXPIRED }, 'expired'],
    [{ kind: 'error' as const, errorCode: ROUND_CAP_EXCEEDED }, 'capped'],
    [{ kind: 'error' as const, errorCode: EXCHANGE_CANCELLED }, 'cancelled'],
    [{ kind: 'error' as const, errorCode: EXCHANGE_TERMINATED }, 'terminated'],
    [{ kind: 'error' as const, errorCode: INTERNAL_ERROR }, 'failed'],
    [{ kind: 'error' as const, errorCode: INVALID_PARAMS }, 'failed'],
    [{ kind: 'error' as const }, 'failed'],
  ])('%j is %s', (outcome, status) => {
    expect(exchangeStatusOf(outcome)).toBe(status);
  });

  it('treats every status but running as final', () => {
    expect(isFinal('running')).toBe(false);
    for (const status of ['completed', 'failed', 'expired', 'capped', 'cancelled', 'terminated'] as const)
      expect(isFinal(status)).toBe(true);
  });
});
