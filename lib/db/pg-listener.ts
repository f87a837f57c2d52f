/**
 * The Postgres LISTEN hub of one process: one dedicated connection LISTENs on a fixed set of
 * channels and hands each notification to the subscribers of its channel and payload.
 *
 * Postgres delivers every NOTIFY to a connected listener, so while the connection is up a
 * subscriber hears everything. What can be missed is what is notified while it is down: so when
 * the connection drops, the hub wakes every subscriber (they must look for themselves from now on)
 * and reconnects with backoff, LISTENs on every channel again, and wakes every subscriber once more
 * (anything notified meanwhile is found by looking). `listening` says which of the two holds.
 *
 * A payload is a key (what subscribers subscribe to), optionally followed by a newline and a body
 * the notifier sends along (a round's record, say), which the subscribers of the key are handed.
 */
import { postgresErrorFields } from './connection-loss';
import { Client } from 'pg';
import type { Logger } from '../log';

export interface PgListener {
  /**
   * Calls `wake` on every NOTIFY of `key` on `channel`, with the body the payload carries after
   * the key, if any; and, with no body, whenever notifications may have been missed (the
   * connection dropped, or is back). Returns the unsubscribe.
   */
  subscribe(channel: string, key: string, wake: (body?: string) => void): () => void;
  /** True while the connection is up and LISTENs on every channel; false while nothing is delivered. */
  readonly listening: boolean;
  /** Ends the connection for good; subscribers are woken, as for any drop. */
  close(): Promise<void>;
}

export interface PgListenerOptions {
  databaseUrl: string;
  /** The channels to LISTEN on; a subscription to any other never hears a notification. */
  channels: readonly string[];
  log: Logger;
  /** How the LISTEN connection names itself in pg_stat_activity. */
  applicationName?: string;
}

const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 10_000;

/** Connects and LISTENs on every channel before it resolves; fails if the first connection does. */
export async function createPgListener(options: PgListenerOptions): Promise<PgListener> {
  const { channels, log } = options;
  const subscribers = new Map<string, Set<(body?: string) => void>>();
  let closed = false;
  let connection: Client | undefined;

  const keyOf = (channel: string, key: string) => `${channel}:${key}`;
  const wakeAll = () => subscribers.forEach((set) => set.forEach((wake) => wake()));

  /** Connects and LISTENs; a client that fails on the way is ended, never left open. */
  async function connect(): Promise<void> {
    // keepAlive: a LISTEN socket that dies half-open is noticed (and reconnected), not trusted for ever.
    const client = new Client({
      keepAlive: true,
      connectionString: options.databaseUrl,
      application_name: options.applicationName ?? 'durable-mcp-listen',
    });
    client.on('notification', (message) => {
      const { payload } = message;
      if (!payload) return;
      const cut = payload.indexOf('\n');
      const [key, body] = cut < 0 ? [payload, undefined] : [payload.slice(0, cut), payload.slice(cut + 1)];
      subscribers.get(keyOf(message.channel, key))?.forEach((wake) => wake(body));
    });
    client.on('error', (error) => log.warn(postgresErrorFields(error), 'Postgres listener connection failed'));
    try {
      await client.connect();
      for (const channel of channels) await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    // Only the connection in use reconnects when it drops, so one outage makes one retry chain.
    client.on('end', () => {
      if (connection !== client) return;
      connection = undefined;
      wakeAll(); // from now on nothing is delivered: subscribers look for themselves
      if (!closed) scheduleReconnect();
    });
    connection = client;
    wakeAll(); // anything notified while nobody listened is found by looking
  }

  let retryInMs = FIRST_RETRY_MS;
  let reconnecting = false;
  let retryTimer: NodeJS.Timeout | undefined;
  function scheduleReconnect(): void {
    if (reconnecting) return;
    reconnecting = true;
    const attempt = () => {
      retryTimer = setTimeout(() => {
        retryTimer = undefined;
        if (closed) {
          reconnecting = false;
          return;
        }
        connect()
          .then(() => {
            reconnecting = false;
            retryInMs = FIRST_RETRY_MS;
            if (closed) {
              // Closed while this reconnect was on its way: the new connection goes too.
              const client = connection;
              connection = undefined;
              void client?.end().catch(() => undefined);
              return;
            }
            log.info('Postgres listener reconnected');
          })
          .catch((error) => {
            log.warn({ ...postgresErrorFields(error), retryInMs }, 'Postgres listener reconnect failed');
            retryInMs = Math.min(retryInMs * 2, MAX_RETRY_MS);
            if (closed) reconnecting = false;
            else attempt();
          });
      }, retryInMs);
      retryTimer.unref();
    };
    attempt();
  }

  await connect();

  return {
    subscribe(channel, key, wake) {
      const entry = keyOf(channel, key);
      const set = subscribers.get(entry) ?? new Set();
      subscribers.set(entry, set);
      set.add(wake);
      return () => {
        set.delete(wake);
        if (set.size === 0 && subscribers.get(entry) === set) subscribers.delete(entry);
      };
    },

    get listening() {
      return connection !== undefined;
    },

    async close() {
      closed = true;
      // A retry waiting for Postgres to come back is not made once closed.
      clearTimeout(retryTimer);
      const client = connection;
      connection = undefined;
      wakeAll();
      await client?.end().catch(() => undefined);
    },
  };
}
