import { FIRST_LEG, countedWith, outlastsPatience, patienceOf } from './client-patience';

describe('client patience', () => {
  it('sends the complete result at the configured leg, whatever the legs were', () => {
    const patience = patienceOf('node', 10);
    let count = FIRST_LEG;
    const outlasted: number[] = [];
    for (let leg = 1; leg <= 12; leg++) {
      const stateOnly = leg % 2 === 0;
      if (outlastsPatience(count, stateOnly, patience)) outlasted.push(leg);
      count = countedWith(count, stateOnly);
    }
    expect(outlasted[0]).toBe(10);
  });

  it("stops the Go SDK's loop at its third state-only result, not its third result", () => {
    const patience = patienceOf('Go-http-client/1.1', 10);
    expect(patience).toEqual({ legs: 10, stateOnlyLegs: 3 });
    // Two asks, then state-only results: the third state-only one (leg 5) is the complete result.
    let count = countedWith(countedWith(FIRST_LEG, false), false);
    expect(outlastsPatience(count, true, patience)).toBe(false);
    count = countedWith(count, true);
    expect(outlastsPatience(count, true, patience)).toBe(false);
    count = countedWith(count, true);
    expect(outlastsPatience(count, true, patience)).toBe(true);
    // An ask at that point is still taken.
    expect(outlastsPatience(count, false, patience)).toBe(false);
  });

  it('never lets a Go client wait longer than the legs allow', () => {
    expect(patienceOf('Go-http-client/2.0', 2)).toEqual({ legs: 2, stateOnlyLegs: 2 });
  });
});
