/**
 * One upstream's circuit breaker, per process: after `failuresToOpen` failed calls in a row the
 * circuit opens, and for `openMs` every call fails at once (no connection is tried, no worker slot
 * is held waiting on a server that is down); then one call is let through (half open): its success
 * closes the circuit, its failure opens it again. Pure: the clock is given.
 */
export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitBreaker {
  /** Whether a call may go now (in half open, only the first caller gets true until it reports). */
  allow(): boolean;
  success(): void;
  failure(): void;
  state(): CircuitState;
  /** When an open circuit lets a call through again (epoch ms), if it is open. */
  retryAt(): number | undefined;
}

export function createCircuitBreaker(options: {
  failuresToOpen: number;
  openMs: number;
  now?: () => number;
}): CircuitBreaker {
  const now = options.now ?? Date.now;
  let failures = 0;
  let openedAt: number | undefined;
  let trial = false;

  const state = (): CircuitState => {
    if (openedAt === undefined) return 'closed';
    return now() - openedAt >= options.openMs ? 'half-open' : 'open';
  };

  return {
    allow() {
      const current = state();
      if (current === 'closed') return true;
      if (current === 'open' || trial) return false;
      trial = true;
      return true;
    },
    success() {
      failures = 0;
      openedAt = undefined;
      trial = false;
    },
    failure() {
      failures += 1;
      if (trial || failures >= options.failuresToOpen) {
        openedAt = now();
        trial = false;
      }
    },
    state,
    retryAt: () => (state() === 'open' && openedAt !== undefined ? openedAt + options.openMs : undefined),
  };
}
