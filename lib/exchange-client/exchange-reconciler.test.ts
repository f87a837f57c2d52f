// Pins the error each way Temporal can close a workflow gives its exchange.
import { EXCHANGE_CANCELLED, EXCHANGE_TERMINATED } from '../protocol/exchange-errors';
import { stuckTerminationReason } from '../exchange/stuck-causes';
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

  it('makes a workflow the stuck workflow sweep terminated a failed exchange naming the class', () => {
    const error = endingFor('x', 'TERMINATED', stuckTerminationReason('payload-undecodable', 61_000, 7));
    expect(error.code).toBe(INTERNAL_ERROR);
    expect(error.data).toEqual({ exchangeId: 'x', cause: 'payload-undecodable' });
    expect(error.message).toMatch(/a payload could not be decoded/);
    expect(statusOf(error.code)).toBe('failed');
  });

  it('keeps an operator termination an exchange ended by Temporal, whatever its reason', () => {
    expect(endingFor('x', 'TERMINATED', 'cleaning up').code).toBe(EXCHANGE_TERMINATED);
    // Only a termination can carry the sweep's reason.
    expect(endingFor('x', 'TIMED_OUT', stuckTerminationReason('non-determinism', 1, 2)).code).toBe(EXCHANGE_TERMINATED);
  });
});
