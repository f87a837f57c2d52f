/**
 * Waits for what workers record about a round (its outcome, the notifications its handler sends),
 * on behalf of whichever API replica holds the client's request.
 *
 * One dedicated connection LISTENs on the outcome and event channels; a notification only wakes
 * the waiters for that round, which then re-read the rows. While that connection is up an idle
 * waiter costs Postgres nothing: Postgres delivers every NOTIFY to a connected listener, so the
 * waiter re-reads only when notified. What can be missed is what happens while the connection is
 * down, so then (and only then) waiters re-read every `pollMs`, and every waiter re-reads when the
 * listener drops and when it reconnects: a dropped LISTEN connection costs latency, never
 * correctness.
 */
import { Client } from 'pg';
import type { Logger } from '../log';
import type { ExchangeStore, RoundRecord, StoredEvent } from './exchange-store';
import { EVENT_CHANNEL, OUTCOME_CHANNEL } from './exchange-store';
import { LEGACY_STREAM_CHANNEL } from './legacy-store';

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
  close(): Promise<void>;
}

export interface OutcomeWaiterOptions {
  databaseUrl: string;
  store: ExchangeStore;
  pollMs: number;
  log: Logger;
  /** How the LISTEN connection names itself in pg_stat_activity. */
  applicationName?: string;
}

export async function createOutcomeWaiter(options: OutcomeWaiterOptions): Promise<OutcomeWaiter> {
  const { store, pollMs, log } = options;
  const wakers = new Map<string, Set<() => void>>();
  let closed = false;
  let listener: Client | undefined;

  const wakeAll = () => wakers.forEach((set) => set.forEach((wake) => wake()));

  /** Connects and LISTENs; a client that fails on the way is ended, never left open. */
  async function connect(): Promise<void> {
    // keepAlive: a LISTEN socket that dies half-open is noticed (and reconnected), not trusted for ever.
    const client = new Client({
      keepAlive: true,
      connectionString: options.databaseUrl,
      application_name: options.applicationName ?? 'durable-mcp-listen',
    });
    client.on('notification', (message) => {
      if (!message.payload) return;
      wakers.get(`${message.channel}:${message.payload}`)?.forEach((wake) => wake());
    });
    client.on('error', (error) => log.warn({ err: error }, 'outcome listener connection failed'));
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTCOME_CHANNEL}`);
      await client.query(`LISTEN ${EVENT_CHANNEL}`);
      await client.query(`LISTEN ${LEGACY_STREAM_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    // Only the connection in use reconnects when it drops, so one outage makes one retry chain.
    client.on('end', () => {
      if (listener !== client) return;
      listener = undefined;
      wakeAll(); // from now on waiters poll, until the listener is back
      if (!closed) scheduleReconnect();
    });
    listener = client;
    wakeAll(); // anything recorded while we were not listening is found by the re-read
  }

  let reconnectDelay = 250;
  let reconnecting = false;
  function scheduleReconnect(): void {
    if (reconnecting) return;
    reconnecting = true;
    const attempt = () => {
      const timer = setTimeout(() => {
        connect()
          .then(() => {
            reconnecting = false;
            reconnectDelay = 250;
            log.info('outcome listener reconnected');
          })
          .catch((error) => {
            log.warn({ err: error, retryInMs: reconnectDelay }, 'outcome listener reconnect failed');
            reconnectDelay = Math.min(reconnectDelay * 2, 10_000);
            if (closed) reconnecting = false;
            else attempt();
          });
      }, reconnectDelay);
      timer.unref();
    };
    attempt();
  }

  /** Re-reads until `read` finds something: on each wake-up, and every `pollMs` while not listening. */
  async function waitFor<T>(key: string, read: () => Promise<T | undefined>, timeoutMs: number, signal?: AbortSignal) {
    const deadline = Date.now() + timeoutMs;
    let woken = false;
    let wake: () => void = () => undefined;
    const waker = () => {
      woken = true;
      wake();
    };
    const set = wakers.get(key) ?? new Set();
    wakers.set(key, set);
    set.add(waker);
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
          const timer = setTimeout(done, listener && !failing ? remaining : Math.min(remaining, pollMs));
          signal?.addEventListener('abort', done, { once: true });
          wake = done;
        });
      }
    } finally {
      set.delete(waker);
      if (set.size === 0) wakers.delete(key);
    }
  }

  await connect();

  return {
    wait(exchangeId, round, timeoutMs, signal) {
      return waitFor(
        `${OUTCOME_CHANNEL}:${exchangeId}:${round}`,
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
      return (await waitFor(`${EVENT_CHANNEL}:${exchangeId}:${round}`, read, timeoutMs, signal)) ?? [];
    },

    waitFor(channel, payload, read, timeoutMs, signal) {
      return waitFor(`${channel}:${payload}`, read, timeoutMs, signal);
    },

    async close() {
      closed = true;
      wakeAll();
      const client = listener;
      listener = undefined;
      await client?.end().catch(() => undefined);
    },
  };
}
