// Pins the error each way Temporal can close a workflow gives its exchange.
import { EXCHANGE_CANCELLED, EXCHANGE_TERMINATED } from '../protocol/exchange-errors';
import { exchangeStatusOf } from '../exchange/exchange-status';
import { INTERNAL_ERROR } from '../protocol/json-rpc-codes';
import { endingFor } from './exchange-reconciler';

const statusOf = (code: number) => exchangeStatusOf({ kind: 'error', errorCode: code });

describe('endingFor', () => {
  it('makes a cancelled workflow an operator cancel', () => {
    const error = endingFor('x', 'CANCELLED');
    expect(error.code).toBe(EXCHANGE_CANCELLED);
    expect(error.data).toMatchObject({ cancelledBy: 'operator' });
    expect(statusOf(error.code)).toBe('cancelled');
  });

  it('makes a failed workflow a failed exchange', () => {
    const error = endingFor('x', 'FAILED');
    expect(error.code).toBe(INTERNAL_ERROR);
    expect(statusOf(error.code)).toBe('failed');
  });

  it.each(['TERMINATED', 'TIMED_OUT', 'NOT_FOUND', 'COMPLETED', 'CONTINUED_AS_NEW'] as const)(
    'makes %s an exchange ended by Temporal, naming the status',
    (status) => {
      const error = endingFor('x', status);
      expect(error.code).toBe(EXCHANGE_TERMINATED);
      expect(error.data).toEqual({ exchangeId: 'x', workflowStatus: status });
      expect(statusOf(error.code)).toBe('terminated');
    },
  );
});
