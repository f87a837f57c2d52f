/**
 * Waits for what workers record about a round (its outcome, the notifications its handler sends),
 * and for anything else a NOTIFY announces, on behalf of whichever API replica holds the client's
 * request, on the Postgres listener (pg-listener.ts).
 *
 * A wait listens from the moment its watch begins. A round's outcome is carried in its
 * announcement when it fits (`decodeAnnouncedRound`), so hearing it costs no read; otherwise, and
 * for every other announcement, the wait reads its rows when woken. It also reads when it may have
 * missed something: when it begins (unless the caller knows nothing was there to find), whenever
 * the listener drops and when it is back (which wakes every subscriber), every `pollMs` while it
 * does not listen, and once more when its budget ends. So while the listener listens an idle wait
 * costs Postgres nothing, and a dropped LISTEN connection costs latency, never correctness. A read
 * that fails (Postgres restarting) counts as "not yet" and is polled too.
 */
import type { Logger } from '../log';
import type { ExchangeStore, StoredEvent } from './exchange-store';
import type { RoundRecord } from '../exchange/types';
import { decodeAnnouncedRound, EVENT_CHANNEL, OUTCOME_CHANNEL } from './exchange-store';
import { DELIVERY_FREED_CHANNEL, DELIVERY_TAKEN_CHANNEL, LEGACY_STREAM_CHANNEL } from './legacy-store';
import type { PgListener } from './pg-listener';
import { postgresErrorFields } from './connection-loss';

/** The channels the waits listen on: the listener they are given must LISTEN on each. */
export const WAITED_CHANNELS = [
  OUTCOME_CHANNEL,
  EVENT_CHANNEL,
  LEGACY_STREAM_CHANNEL,
  DELIVERY_FREED_CHANNEL,
  DELIVERY_TAKEN_CHANNEL,
] as const;

export interface WaitOptions {
  signal?: AbortSignal;
  /**
   * The caller knows there was nothing to find when the watch began (nothing could have recorded
   * it yet, or the caller read after the watch began and found nothing): the wait then reads only
   * when an announcement does not carry what it waits for, or when it may have missed one.
   */
  absent?: boolean;
}

/** A wait that listens from the moment it is made; waited on once, or closed by its owner. */
export interface Watch<T> {
  /** What was announced or found since the watch began, or undefined if nothing within `timeoutMs`. */
  wait(timeoutMs: number, options?: WaitOptions): Promise<T | undefined>;
  /** Stops listening (a wait does once it ends; this is for a watch never waited on). */
  close(): void;
}

export interface OutcomeWaiter {
  /** Listens for the round's outcome from now on (so a caller can watch before it acts). */
  watchRound(exchangeId: string, round: number): Watch<RoundRecord>;
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
  /**
   * Reads with `read` whenever `channel` announces `key` (or the listener reconnects) until it
   * finds something; also when it begins, unless `absent` says there is nothing to find yet.
   */
  waitFor<T>(
    channel: string,
    key: string,
    read: () => Promise<T | undefined>,
    timeoutMs: number,
    signal?: AbortSignal,
    options?: Pick<WaitOptions, 'absent'>,
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

const noop = () => undefined;

export function createOutcomeWaiter(options: OutcomeWaiterOptions): OutcomeWaiter {
  const { listener, store, pollMs, log } = options;
  const active = new Set<() => void>();
  let closed = false;

  /**
   * Listens on `channel` for `key` from now on: an announcement whose body `decode` reads is what
   * the wait returns; any other wake-up (a bare key, the listener dropping or back) owes a read.
   */
  function watch<T>(
    channel: string,
    key: string,
    read: () => Promise<T | undefined>,
    decode?: (body: string) => T | undefined,
  ): Watch<T> {
    let heard: T | undefined;
    // Not listening now: whatever is announced from here on may be missed, so look.
    let owed = !listener.listening;
    let wake: () => void = noop;
    const unsubscribe = listener.subscribe(channel, key, (body) => {
      const carried = body === undefined ? undefined : decode?.(body);
      if (carried !== undefined) heard ??= carried;
      else owed = true;
      wake();
    });
    let unsubscribed = false;
    const close = () => {
      if (unsubscribed) return;
      unsubscribed = true;
      unsubscribe();
    };

    async function wait(timeoutMs: number, { signal, absent = false }: WaitOptions = {}): Promise<T | undefined> {
      const deadline = Date.now() + timeoutMs;
      if (!absent) owed = true;
      const waker = () => wake();
      active.add(waker);
      // A read that fails (Postgres restarting) is "not yet": the wait keeps trying, polling, until
      // its budget ends, and the caller answers as for any outcome not ready in time ("come back").
      let failing = false;
      // Set once the timer that ran to the end of the budget fires: one last look, then done.
      let last = false;
      try {
        for (;;) {
          if (heard !== undefined) return heard;
          if (owed) {
            owed = false;
            try {
              const found = await read();
              failing = false;
              if (found !== undefined) return found;
            } catch (error) {
              if (!failing)
                log.warn(
                  postgresErrorFields(error),
                  'a wait could not read Postgres; trying again until its budget ends',
                );
              failing = true;
            }
            if (last) return heard;
            continue; // something may have been heard, or owed, while it read
          }
          const remaining = deadline - Date.now();
          if (remaining <= 0 || signal?.aborted || closed) return undefined;
          const delay = !listener.listening || failing ? Math.min(remaining, pollMs) : remaining;
          const timedOut = await new Promise<boolean>((resolve) => {
            const done = (byTimer: boolean) => {
              clearTimeout(timer);
              signal?.removeEventListener('abort', onAbort);
              wake = noop;
              resolve(byTimer);
            };
            const onAbort = () => done(false);
            const timer = setTimeout(() => done(true), delay);
            signal?.addEventListener('abort', onAbort, { once: true });
            wake = () => done(false);
          });
          // The timer looks for itself: a poll while nothing is delivered, a last look when the budget ends.
          if (timedOut) {
            owed = true;
            last = delay === remaining;
          }
        }
      } finally {
        active.delete(waker);
        close();
      }
    }

    return { wait, close };
  }

  const watchRound = (exchangeId: string, round: number) =>
    watch(
      OUTCOME_CHANNEL,
      `${exchangeId}:${round}`,
      () => store.readRound(exchangeId, round),
      (body) => decodeAnnouncedRound(exchangeId, round, body),
    );

  return {
    watchRound,

    wait: (exchangeId, round, timeoutMs, signal) => watchRound(exchangeId, round).wait(timeoutMs, { signal }),

    async nextEvents(exchangeId, round, afterId, timeoutMs, signal) {
      const read = async () => {
        const events = await store.readEvents(exchangeId, round, afterId);
        return events.length ? events : undefined;
      };
      return (await watch(EVENT_CHANNEL, `${exchangeId}:${round}`, read).wait(timeoutMs, { signal })) ?? [];
    },

    waitFor: (channel, key, read, timeoutMs, signal, options = {}) =>
      watch(channel, key, read).wait(timeoutMs, { signal, ...options }),

    async close() {
      closed = true;
      active.forEach((wake) => wake());
    },
  };
}
