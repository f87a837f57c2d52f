/**
 * How soon this server asks an authorization server again after a request to it failed (its
 * metadata, its key set): not before `firstMs` (OAUTH_JWKS_COOLDOWN_MS) has passed, doubling with
 * each failure in a row up to FETCH_BACKOFF_MAX_MS (or `firstMs`, when that is longer); a success
 * starts over. Meanwhile the callers are answered at once, as during the outage itself (503), so
 * a server that is down, slow or answering nonsense never turns each incoming token, forged ones
 * included, into a request to it.
 */

/** The longest wait between two attempts while an authorization server keeps failing. */
export const FETCH_BACKOFF_MAX_MS = 120_000;

export interface FetchBackoff {
  /** How long until the next attempt may go out; 0 when it may go now. */
  remainingMs(): number;
  /** The attempt failed: the next one waits, longer each time in a row. */
  failed(): void;
  /** The attempt succeeded: the next failure waits `firstMs` again. */
  succeeded(): void;
}

export function createFetchBackoff(firstMs: number, now: () => number = () => Date.now()): FetchBackoff {
  const maxMs = Math.max(firstMs, FETCH_BACKOFF_MAX_MS);
  let failures = 0;
  let notBefore = 0;
  return {
    remainingMs: () => Math.max(0, notBefore - now()),
    failed() {
      failures += 1;
      notBefore = now() + Math.min(maxMs, firstMs * 2 ** Math.min(failures - 1, 30));
    },
    succeeded() {
      failures = 0;
      notBefore = 0;
    },
  };
}
