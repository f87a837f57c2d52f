import { awaitedDeadline, deadlineOf, isLate, roundTimeoutOf, waitingSinceOf } from './round-deadline';

describe('round deadline', () => {
  it('starts when the ask is recorded and runs for the round timeout', () => {
    expect(deadlineOf(1_000, 600)).toBe(1_600);
    expect(roundTimeoutOf(1_600, 1_000)).toBe(600);
  });

  it('is the recorded one, or for an ask recorded without one, starts when the workflow sees it', () => {
    expect(awaitedDeadline(1_600, 5_000, 600)).toBe(1_600);
    expect(awaitedDeadline(undefined, 5_000, 600)).toBe(5_600);
  });

  it('says since when the ask waits: when it was recorded, else its deadline less the timeout', () => {
    expect(waitingSinceOf(1_000, 1_600, 600)).toBe(1_000);
    expect(waitingSinceOf(undefined, 1_600, 500)).toBe(1_100);
  });

  it('refuses only answers sent after it, and counts unknowns as in time', () => {
    expect(isLate(1_600, 1_600)).toBe(false);
    expect(isLate(1_600, 1_601)).toBe(true);
    expect(isLate(undefined, 9_999)).toBe(false);
    expect(isLate(1_600, undefined)).toBe(false);
  });
});
