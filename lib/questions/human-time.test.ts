import { humanTime } from './human-time';

describe('humanTime', () => {
  it('says an instant in UTC to the second, whatever the process time zone', () => {
    expect(humanTime(Date.UTC(2026, 4, 1, 13, 45, 7, 900))).toBe('2026-05-01 13:45:07 UTC');
    expect(humanTime(Date.UTC(2026, 11, 31, 23, 59, 59))).toBe('2026-12-31 23:59:59 UTC');
  });
});
