import { backoffDelay } from './retry-backoff';

describe('the wait before trying again', () => {
  const policy = { initialMs: 1_000, maxMs: 30_000, factor: 2 };

  it('grows by the factor with each failure in a row, up to the most', () => {
    const longest = (attempt: number) => backoffDelay(attempt, policy, () => 1);
    expect([0, 1, 2, 3, 4, 5, 6, 20].map(longest)).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('is drawn between half of its ceiling and all of it', () => {
    expect(backoffDelay(2, policy, () => 0)).toBe(2_000);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(3_000);
    expect(backoffDelay(2, policy, () => 1)).toBe(4_000);
  });
});
