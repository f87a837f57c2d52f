/**
 * The Postgres LISTEN hub against the real Postgres: a NOTIFY reaches the subscribers of its
 * channel and payload only; when its connection drops every subscriber is woken, the hub
 * reconnects and LISTENs on every channel again, wakes every subscriber once more, and delivers
 * what is notified from then on.
 */
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createPgListener, type PgListener } from '../../lib/db/pg-listener';
import { createPool } from '../../lib/db/pool';
import { createLogger } from '../../lib/log';
import { readStackInfo } from '../support/stack-info';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

describe('Postgres listener', () => {
  const log = createLogger('test', 'silent');
  const applicationName = `listener-test-${randomUUID().slice(0, 8)}`;
  const channels = ['listener_test_a', 'listener_test_b'];
  let pool: Pool;
  let listener: PgListener;
  beforeAll(async () => {
    const { databaseUrl } = readStackInfo();
    pool = createPool(databaseUrl, 2, log);
    listener = await createPgListener({ databaseUrl, channels, log, applicationName });
  });
  afterAll(async () => {
    await listener?.close();
    await pool?.end();
  });

  const notify = (channel: string, payload: string) => pool.query('SELECT pg_notify($1, $2)', [channel, payload]);

  it('delivers a notification to the subscribers of its channel and payload only, until they unsubscribe', async () => {
    expect(listener.listening).toBe(true);
    const heard = { a1: 0, a2: 0, b1: 0 };
    const offA1 = listener.subscribe('listener_test_a', 'one', () => void (heard.a1 += 1));
    const offA2 = listener.subscribe('listener_test_a', 'two', () => void (heard.a2 += 1));
    const offB1 = listener.subscribe('listener_test_b', 'one', () => void (heard.b1 += 1));
    try {
      await notify('listener_test_a', 'one');
      await until(() => heard.a1 === 1, 'the first notification');
      await notify('listener_test_b', 'one');
      await until(() => heard.b1 === 1, 'the second channel');
      await notify('listener_test_unlistened', 'one');
      await sleep(200);
      expect(heard).toEqual({ a1: 1, a2: 0, b1: 1 });

      offA1();
      await notify('listener_test_a', 'one');
      await notify('listener_test_a', 'two');
      await until(() => heard.a2 === 1, 'the other payload');
      expect(heard.a1).toBe(1);
    } finally {
      offA1();
      offA2();
      offB1();
    }
  });

  it('hands the subscribers of a key the body its payload carries after a newline', async () => {
    const bodies: Array<string | undefined> = [];
    const off = listener.subscribe('listener_test_a', 'carrier', (body) => void bodies.push(body));
    try {
      await notify('listener_test_a', 'carrier\n{"some":"record"}\nwith a newline');
      await notify('listener_test_a', 'carrier');
      await notify('listener_test_a', 'carrier-not\nbody');
      await until(() => bodies.length === 2, 'both notifications of the key');
      await sleep(100);
      expect(bodies).toEqual(['{"some":"record"}\nwith a newline', undefined]);
    } finally {
      off();
    }
  });

  it('wakes subscribers when its connection drops and when it is back, and listens on every channel again', async () => {
    let wakes = 0;
    const off = listener.subscribe('listener_test_b', 'after', () => void (wakes += 1));
    try {
      await pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [
        applicationName,
      ]);
      await until(() => !listener.listening, 'the drop');
      expect(wakes).toBeGreaterThanOrEqual(1); // the drop: look for yourself from now on
      const whileDown = wakes;
      await until(() => listener.listening, 'the reconnection', 15_000);
      expect(wakes).toBeGreaterThan(whileDown); // back: look once for what was missed
      const reconnected = wakes;
      await notify('listener_test_b', 'after'); // the last channel LISTENed again
      await until(() => wakes > reconnected, 'a notification after the reconnection');
    } finally {
      off();
    }
  });
});
