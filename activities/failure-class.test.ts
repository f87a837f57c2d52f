// Pins which failures end an exchange instead of being retried forever.
import { ApplicationFailure } from '@temporalio/common';
import { classifyFailure, deterministicReason, UNRECORDABLE } from './failure-class';

const pgError = (code: string) => Object.assign(new Error(`pg ${code}`), { code });

describe('deterministicReason', () => {
  it.each(['22P05', '22021', '22P02', '23514', '54000'])('treats SQLSTATE %s as deterministic', (code) => {
    expect(deterministicReason(pgError(code))).toEqual(expect.any(String));
  });

  it.each(['08006', '57P01', '53300', '40001', '23503', '23505', 'ECONNREFUSED', 'ECONNRESET'])(
    'retries %s',
    (code) => {
      expect(deterministicReason(pgError(code))).toBeUndefined();
    },
  );

  it('treats a value JSON cannot serialize as deterministic', () => {
    let caught: unknown;
    try {
      JSON.stringify({ n: BigInt(1) });
    } catch (error) {
      caught = error;
    }
    expect(deterministicReason(caught)).toMatch(/serialized/);
  });

  it('retries a plain error', () => {
    expect(deterministicReason(new Error('connection terminated unexpectedly'))).toBeUndefined();
  });
});

describe('classifyFailure', () => {
  it('rethrows a deterministic failure as a non-retryable ApplicationFailure of its own type', () => {
    let caught: unknown;
    try {
      classifyFailure(pgError('22P05'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApplicationFailure);
    expect((caught as ApplicationFailure).nonRetryable).toBe(true);
    expect((caught as ApplicationFailure).type).toBe(UNRECORDABLE);
  });

  it('rethrows anything else unchanged', () => {
    const error = pgError('08006');
    expect(() => classifyFailure(error)).toThrow(error);
  });
});
