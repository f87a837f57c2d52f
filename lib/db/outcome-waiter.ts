/**
 * Waits for a round outcome recorded by any worker, on behalf of whichever API replica holds the
 * client's request.
 *
 * One dedicated connection LISTENs on the outcome channel; a notification only wakes the waiters
 * for that round, which then re-read the row. The row is the truth and the notification a hint: a
 * waiter also re-reads every `pollMs` and after the listener reconnects, so a lost notification
 * (or a dropped LISTEN connection) costs latency, never correctness.
 */
import { Client } from 'pg';
import type { Logger } from '../log';
import type { ExchangeStore, RoundRecord } from './exchange-store';
import { OUTCOME_CHANNEL } from './exchange-store';

export interface OutcomeWaiter {
  /** The round's outcome, or undefined if it was not recorded within `timeoutMs`. */
  wait(exchangeId: string, round: number, timeoutMs: number, signal?: AbortSignal): Promise<RoundRecord | undefined>;
  close(): Promise<void>;
}

export interface OutcomeWaiterOptions {
  databaseUrl: string;
  store: ExchangeStore;
  pollMs: number;
  log: Logger;
}

export async function createOutcomeWaiter(options: OutcomeWaiterOptions): Promise<OutcomeWaiter> {
  const { store, pollMs, log } = options;
  const wakers = new Map<string, Set<() => void>>();
  let closed = false;
  let listener: Client | undefined;

  const wakeAll = () => wakers.forEach((set) => set.forEach((wake) => wake()));

  async function connect(): Promise<void> {
    const client = new Client({ connectionString: options.databaseUrl, application_name: 'durable-mcp-listen' });
    client.on('notification', (message) => {
      if (message.channel !== OUTCOME_CHANNEL || !message.payload) return;
      wakers.get(message.payload)?.forEach((wake) => wake());
    });
    client.on('error', (error) => log.warn({ err: error }, 'outcome listener connection failed'));
    client.on('end', () => {
      if (listener === client) listener = undefined;
      if (!closed) scheduleReconnect();
    });
    await client.connect();
    await client.query(`LISTEN ${OUTCOME_CHANNEL}`);
    listener = client;
    wakeAll(); // anything recorded while we were not listening is found by the re-read
  }

  let reconnectDelay = 250;
  function scheduleReconnect(): void {
    const timer = setTimeout(() => {
      connect()
        .then(() => {
          reconnectDelay = 250;
          log.info('outcome listener reconnected');
        })
        .catch((error) => {
          log.warn({ err: error, retryInMs: reconnectDelay }, 'outcome listener reconnect failed');
          reconnectDelay = Math.min(reconnectDelay * 2, 10_000);
          if (!closed) scheduleReconnect();
        });
    }, reconnectDelay);
    timer.unref();
  }

  await connect();

  return {
    async wait(exchangeId, round, timeoutMs, signal) {
      const key = `${exchangeId}:${round}`;
      const deadline = Date.now() + timeoutMs;
      let wake: () => void = () => undefined;
      let woken = false;
      const set = wakers.get(key) ?? new Set();
      wakers.set(key, set);
      const waker = () => {
        woken = true;
        wake();
      };
      set.add(waker);
      try {
        for (;;) {
          woken = false;
          const record = await store.readRound(exchangeId, round);
          if (record) return record;
          const remaining = deadline - Date.now();
          if (remaining <= 0 || signal?.aborted || closed) return undefined;
          if (woken) continue; // a notification raced the read
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(remaining, pollMs));
            const onAbort = () => resolve();
            signal?.addEventListener('abort', onAbort, { once: true });
            wake = () => {
              clearTimeout(timer);
              signal?.removeEventListener('abort', onAbort);
              resolve();
            };
          });
        }
      } finally {
        set.delete(waker);
        if (set.size === 0) wakers.delete(key);
      }
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
