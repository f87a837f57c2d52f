/**
 * SSE_MAX_BUFFERED_BYTES on a legacy stream: a consumer that reads is paced and gets everything,
 * its stream open; one that stopped reading has its stream closed once it left more unread, and its
 * session ended.
 */
import { connect, type Socket } from 'node:net';
import { createLegacyStorePg } from '../../lib/db/legacy-store-pg';
import { openSseSession } from '../support/legacy-client';
import { startTestService, type TestService } from '../support/test-service';
import { eventually } from './budgets-support';

describe('legacy streams', () => {
  let main: TestService;
  beforeAll(async () => {
    main = await startTestService({ SSE_MAX_BUFFERED_BYTES: '65536' });
  });
  afterAll(async () => {
    await main?.close();
  });

  describe('SSE_MAX_BUFFERED_BYTES', () => {
    /** Produces `count` notifications of about `bytes` each onto a 2024-11-05 session's stream. */
    async function produce(sessionId: string, count: number, bytes: number) {
      const store = createLegacyStorePg(main.pool, main.config.limits);
      for (let i = 0; i < count; i++) {
        await store.appendMessage({
          sessionId,
          streamId: `sse:${sessionId}`,
          messageKey: `bulk:${i}`,
          message: {
            jsonrpc: '2.0',
            method: 'notifications/message',
            params: { level: 'info', data: `${i}:${'b'.repeat(bytes)}` },
          },
        });
      }
    }
    const closedAt = async (sessionId: string) =>
      (
        await main.pool.query<{ closed_at: Date | null }>('SELECT closed_at FROM legacy_sessions WHERE id = $1', [
          sessionId,
        ])
      ).rows[0]?.closed_at;

    it('paces a consumer that reads: it gets everything, the stream stays open', async () => {
      const sse = await openSseSession(main.url);
      try {
        await produce(sse.sessionId, 120, 10_000);
        await sse.stream.until((m) => String(m.params?.data).startsWith('119:'), 'the last notification', 30_000);
        expect(sse.stream.messages.filter((m) => m.message.method === 'notifications/message')).toHaveLength(120);
        expect(sse.stream.ended).toBe(false);
        expect(await closedAt(sse.sessionId)).toBeNull();
      } finally {
        sse.close();
      }
    });

    it('closes the stream of a consumer that stopped reading once it left more unread, and ends its session', async () => {
      const { port, hostname } = new URL(main.url);
      const socket: Socket = connect(Number(port), hostname);
      try {
        // Read up to the endpoint announcement, then stop reading altogether.
        const endpoint = await new Promise<string>((resolve, reject) => {
          let text = '';
          socket.on('error', reject);
          socket.on('data', (chunk) => {
            text += chunk.toString('utf8');
            const match = /event: endpoint\r?\ndata: (\S+)\r?\n/.exec(text);
            if (match) {
              socket.pause();
              socket.removeAllListeners('data');
              resolve(match[1]!);
            }
          });
          socket.write(`GET /sse HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`);
        });
        const sessionId = new URL(endpoint, main.url).searchParams.get('sessionId')!;
        // Well past what the kernel's socket buffers take (a few MB on loopback) and then the budget.
        await produce(sessionId, 120, 100_000);
        expect(
          await eventually(
            () => closedAt(sessionId),
            (at) => at != null,
            20_000,
          ),
        ).toBeInstanceOf(Date);
      } finally {
        socket.destroy();
      }
    });
  });
});
