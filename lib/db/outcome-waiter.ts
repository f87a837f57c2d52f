/**
 * Waits for what workers record about a round (its outcome, the notifications its handler sends),
 * and for anything else a NOTIFY announces, on behalf of whichever API replica holds the client's
 * request: a wait re-reads its rows each time the Postgres listener (pg-listener.ts) wakes it.
 *
 * While the listener listens an idle wait costs Postgres nothing: it re-reads only when notified.
 * While it does not, a wait re-reads every `pollMs` (and once when the listener drops and when it
 * is back, which wakes every subscriber): a dropped LISTEN connection costs latency, never
 * correctness. A read that fails (Postgres restarting) counts as "not yet" and is polled too.
 */
import type { Logger } from '../log';
import type { ExchangeStore, RoundRecord, StoredEvent } from './exchange-store';
import { EVENT_CHANNEL, OUTCOME_CHANNEL } from './exchange-store';
import { LEGACY_STREAM_CHANNEL } from './legacy-store';
import type { PgListener } from './pg-listener';

/** The channels the waits listen on: the listener they are given must LISTEN on each. */
export const WAITED_CHANNELS = [OUTCOME_CHANNEL, EVENT_CHANNEL, LEGACY_STREAM_CHANNEL] as const;

export interface OutcomeWaiter {
  /** The round's outcome, or undefined if it was not recorded within `timeoutMs`. */
  wait(exchangeId: string, round: number, timeoutMs: number, signal?: AbortSignal): Promise<RoundRecord | undefined>;
  /** The round's notifications after `afterId`; empty if none came within `timeoutMs`. */
  nextEvents(
    exchangeId: string,
    round: number,
    afterId: number,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<StoredEvent[]>;
  /** Re-reads with `read` whenever `channel` announces `payload` (or the listener reconnects) until it finds something. */
  waitFor<T>(
    channel: string,
    payload: string,
    read: () => Promise<T | undefined>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<T | undefined>;
  /** Ends every wait now (each resolves as not found); the listener is its owner's to close. */
  close(): Promise<void>;
}

export interface OutcomeWaiterOptions {
  listener: PgListener;
  store: ExchangeStore;
  pollMs: number;
  log: Logger;
}

export function createOutcomeWaiter(options: OutcomeWaiterOptions): OutcomeWaiter {
  const { listener, store, pollMs, log } = options;
  const active = new Set<() => void>();
  let closed = false;

  /** Re-reads until `read` finds something: on each wake-up, and every `pollMs` while not listening. */
  async function waitFor<T>(
    channel: string,
    payload: string,
    read: () => Promise<T | undefined>,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    let woken = false;
    let wake: () => void = () => undefined;
    const waker = () => {
      woken = true;
      wake();
    };
    const unsubscribe = listener.subscribe(channel, payload, waker);
    active.add(waker);
    // A read that fails (Postgres restarting) is "not yet": the wait keeps trying, polling, until
    // its budget ends, and the caller answers as for any outcome not ready in time ("come back").
    let failing = false;
    try {
      for (;;) {
        woken = false;
        let found: T | undefined;
        try {
          found = await read();
          failing = false;
        } catch (error) {
          if (!failing) log.warn({ err: error }, 'a wait could not read Postgres; trying again until its budget ends');
          failing = true;
        }
        if (found !== undefined) return found;
        const remaining = deadline - Date.now();
        if (remaining <= 0 || signal?.aborted || closed) return undefined;
        if (woken) continue; // a notification raced the read
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', done);
            resolve();
          };
          const timer = setTimeout(done, listener.listening && !failing ? remaining : Math.min(remaining, pollMs));
          signal?.addEventListener('abort', done, { once: true });
          wake = done;
        });
      }
    } finally {
      active.delete(waker);
      unsubscribe();
    }
  }

  return {
    wait(exchangeId, round, timeoutMs, signal) {
      return waitFor(
        OUTCOME_CHANNEL,
        `${exchangeId}:${round}`,
        () => store.readRound(exchangeId, round),
        timeoutMs,
        signal,
      );
    },

    async nextEvents(exchangeId, round, afterId, timeoutMs, signal) {
      const read = async () => {
        const events = await store.readEvents(exchangeId, round, afterId);
        return events.length ? events : undefined;
      };
      return (await waitFor(EVENT_CHANNEL, `${exchangeId}:${round}`, read, timeoutMs, signal)) ?? [];
    },

    waitFor,

    async close() {
      closed = true;
      active.forEach((wake) => wake());
    },
  };
}
