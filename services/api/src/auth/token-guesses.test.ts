// Pins what a guesser of the admin token gets: a fixed budget of wrong tokens per client address
// and window, then 429 until the window ends, whatever it sends; IPv6 counted per /64.
import type { Request } from 'express';
import { clientKey, createTokenGuesses, MAX_TRACKED_CLIENTS } from './token-guesses';

const from = (ip: string) => ({ ip }) as Request;
const LIMIT = { maxFailures: 3, windowMs: 60_000 };

describe('token guesses', () => {
  it('locks a client address out after its budget of wrong tokens, until the window of its first ends', () => {
    let clock = 1_000_000;
    const guesses = createTokenGuesses(LIMIT, () => clock);
    const guesser = from('203.0.113.7');
    expect([guesses.failed(guesser), guesses.failed(guesser)]).toEqual([false, false]);
    expect(guesses.retryAfterMs(guesser)).toBe(0);
    clock += 10_000;
    expect(guesses.failed(guesser)).toBe(true); // this one used the budget up
    expect(guesses.retryAfterMs(guesser)).toBe(50_000);
    // Another address is not held to it.
    expect(guesses.retryAfterMs(from('203.0.113.8'))).toBe(0);
    clock += 49_999;
    expect(guesses.retryAfterMs(guesser)).toBe(1);
    clock += 1;
    expect(guesses.retryAfterMs(guesser)).toBe(0);
    // A new window, a new budget.
    expect(guesses.failed(guesser)).toBe(false);
    expect(guesses.retryAfterMs(guesser)).toBe(0);
  });

  it('counts an IPv6 client per /64, an IPv4-mapped one as its IPv4 address', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:DB8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(clientKey('198.51.100.4')).toBe('198.51.100.4');
    expect(clientKey(undefined)).toBe('unknown');

    const guesses = createTokenGuesses(LIMIT);
    // One host walking through the addresses of its /64 is still one guesser.
    for (const suffix of ['1', '2', '3']) guesses.failed(from(`2001:db8:1:2::${suffix}`));
    expect(guesses.retryAfterMs(from('2001:db8:1:2::ffff'))).toBeGreaterThan(0);
    expect(guesses.retryAfterMs(from('2001:db8:1:3::1'))).toBe(0);
  });

  it(`keeps at most ${MAX_TRACKED_CLIENTS} addresses: made-up ones filling the table cannot end a lockout`, () => {
    let clock = 0;
    const guesses = createTokenGuesses(LIMIT, () => clock);
    const address = (i: number) => from(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    for (let i = 0; i < 3; i += 1) guesses.failed(address(0));
    clock += 1;
    for (let i = 1; i < MAX_TRACKED_CLIENTS + 5; i += 1) guesses.failed(address(i));
    // The locked-out address stays locked; the oldest that were not went, to make room.
    expect(guesses.retryAfterMs(address(0))).toBeGreaterThan(0);
    expect([guesses.failed(address(1)), guesses.failed(address(1))]).toEqual([false, false]);
    expect(guesses.retryAfterMs(address(1))).toBe(0); // its first failure was dropped: two is under the budget
  });

  it('drops the oldest lockout only when the table holds nothing but lockouts', () => {
    const guesses = createTokenGuesses({ maxFailures: 1, windowMs: 60_000 }, () => 0);
    const address = (i: number) => from(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    for (let i = 0; i < MAX_TRACKED_CLIENTS + 1; i += 1) guesses.failed(address(i));
    expect(guesses.retryAfterMs(address(0))).toBe(0);
    expect(guesses.retryAfterMs(address(MAX_TRACKED_CLIENTS))).toBeGreaterThan(0);
  });

  it('does not count a request with no client address (its connection is gone)', () => {
    const guesses = createTokenGuesses({ maxFailures: 1, windowMs: 60_000 });
    expect(guesses.failed({ ip: undefined } as Request)).toBe(false);
    expect(guesses.retryAfterMs({ ip: undefined } as Request)).toBe(0);
  });
});
