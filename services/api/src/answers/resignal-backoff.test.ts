import { MAX_RESIGNAL_BACKOFF_MS, resignalBackoffMs } from './resignal-backoff';

describe('the backoff of an answer whose signal keeps failing', () => {
  it('waits the period after the first failure, then twice as long after each', () => {
    expect([1, 2, 3, 4].map((failures) => resignalBackoffMs(failures, 10_000))).toEqual([
      10_000, 20_000, 40_000, 80_000,
    ]);
  });

  it('never waits more than an hour, however many failures', () => {
    expect(resignalBackoffMs(9, 10_000)).toBe(2_560_000);
    expect(resignalBackoffMs(10, 10_000)).toBe(MAX_RESIGNAL_BACKOFF_MS);
    expect(resignalBackoffMs(1_000_000, 10_000)).toBe(MAX_RESIGNAL_BACKOFF_MS);
  });

  it('never waits less than the period, even for a period over an hour', () => {
    expect(resignalBackoffMs(0, 10_000)).toBe(10_000);
    expect(resignalBackoffMs(5, 7_200_000)).toBe(7_200_000);
  });
});
