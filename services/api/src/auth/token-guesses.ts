/**
 * Guesses at the operator's tokens, counted per client address in this process's memory: the
 * admin token at /admin, /codec/sign-in and /codec/decode, the encode token at /codec/encode.
 * A client address that sends ADMIN_TOKEN_MAX_FAILURES wrong tokens within
 * ADMIN_TOKEN_FAILURE_WINDOW_MS of its first (a fixed window) gets 429 with `Retry-After` on those
 * routes until the window ends, whatever it sends then, the right token included (so a guess made
 * then tells the guesser nothing). Only a wrong token counts: a request without one, or with a
 * sign-in cookie that expired or was revoked, does not, so an operator's browser never locks
 * itself out.
 *
 * The client address is express's `req.ip`: behind a proxy, TRUST_PROXY says which hops'
 * X-Forwarded-For to believe (without it, the proxy's own address stands for all its clients, and
 * a forged X-Forwarded-For changes nothing). IPv6 addresses count per /64, the block one host is
 * usually given. Each replica counts on its own; at most MAX_TRACKED_CLIENTS addresses are kept,
 * the oldest that is not locked out dropped first.
 */
import { isIPv4, isIPv6 } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import type { TokenGuessLimit } from '../../../../lib/config';

export const MAX_TRACKED_CLIENTS = 10_000;

export interface TokenGuesses {
  /** How long until this request's client may try again; 0 when it may now. */
  retryAfterMs(req: Request): number;
  /** A wrong token from this request's client; true when this one used up its window's budget. */
  failed(req: Request): boolean;
}

/** The key a client's guesses are counted under: its IPv4 address, or the /64 of its IPv6 one. */
export function clientKey(address: string | undefined): string {
  if (address === undefined) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const bare = address.replace(/%.*$/, ''); // a link-local address's zone
  if (isIPv4(bare) || !isIPv6(bare)) return address;
  // The URL parser writes an IPv6 address in one form (lower case, `::` for the longest zero run,
  // no IPv4 tail): spelled out from it, the first four groups are the /64.
  const [head = '', tail] = new URL(`http://[${bare}]`).hostname.slice(1, -1).split('::');
  const first = head.split(':').filter(Boolean);
  const last = tail === undefined ? [] : tail.split(':').filter(Boolean);
  const groups = [...first, ...Array<string>(8 - first.length - last.length).fill('0'), ...last];
  return `${groups.slice(0, 4).join(':')}::/64`;
}

export function createTokenGuesses(limit: TokenGuessLimit, now: () => number = () => Date.now()): TokenGuesses {
  const windows = new Map<string, { startedAt: number; failures: number }>();

  function current(key: string) {
    const window = windows.get(key);
    if (window && now() - window.startedAt >= limit.windowMs) {
      windows.delete(key);
      return undefined;
    }
    return window;
  }

  function makeRoom(): void {
    if (windows.size < MAX_TRACKED_CLIENTS) return;
    for (const [key, window] of windows) if (now() - window.startedAt >= limit.windowMs) windows.delete(key);
    // Still full: the oldest that is not locked out goes (a Map iterates in insertion order), so
    // addresses made up to fill the table cannot end a lockout before its Retry-After; only a table
    // of nothing but lockouts loses its oldest one.
    for (const [key, window] of windows) {
      if (windows.size < MAX_TRACKED_CLIENTS) return;
      if (window.failures < limit.maxFailures) windows.delete(key);
    }
    while (windows.size >= MAX_TRACKED_CLIENTS) windows.delete(windows.keys().next().value!);
  }

  return {
    retryAfterMs(req) {
      const window = current(clientKey(req.ip));
      if (!window || window.failures < limit.maxFailures) return 0;
      return window.startedAt + limit.windowMs - now();
    },
    failed(req) {
      // No address: the connection is gone, and nothing can be answered to it anyway.
      if (req.ip === undefined) return false;
      const key = clientKey(req.ip);
      let window = current(key);
      if (!window) {
        makeRoom();
        window = { startedAt: now(), failures: 0 };
        windows.set(key, window);
      }
      window.failures += 1;
      return window.failures === limit.maxFailures;
    },
  };
}

/**
 * Lets a request through unless its client is locked out; then `refuse` answers it (429), told how
 * many seconds to say in Retry-After, which this sets.
 */
export function tokenGuessLockout(
  guesses: TokenGuesses,
  refuse: (res: Response, retryAfterS: number) => void,
): RequestHandler {
  return (req, res, next) => {
    const waitMs = guesses.retryAfterMs(req);
    if (waitMs <= 0) return next();
    const retryAfterS = Math.max(1, Math.ceil(waitMs / 1000));
    res.set('Retry-After', String(retryAfterS));
    refuse(res, retryAfterS);
  };
}
