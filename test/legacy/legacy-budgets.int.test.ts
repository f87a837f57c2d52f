/**
 * The handshake-era budgets, on the real stack (API + worker + Temporal + Postgres): what a
 * session's stream keeps and how it is replayed, how a consumer that stops reading is treated,
 * the stream, session and exchange caps (-32000, HTTP 429, Retry-After), repeated answers, the
 * size of one round's answers (HTTP 413), and what the logs say about sessions.
 */
import { connect, type Socket } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { createLegacyStorePg, OPEN_REQUESTS_OF_SESSION_SQL } from '../../lib/db/legacy-store-pg';
import { sessionRef } from '../../lib/log';
import { serviceDataConverter } from '../../lib/payload-codec/data-converter';
import { SERVER_BUSY } from '../../lib/protocol/rpc-error';
import { workflowIdFor } from '../../workflows/messages';
import { startApiProcess } from '../support/service-processes';
import { isRequest, isResponseTo, LegacySession, openSseSession, type JsonRpcMessage } from '../support/legacy-client';
import { rawPost } from '../support/raw-mcp';
import { startTestService, TEST_KEY_RINGS, type TestService } from '../support/test-service';

const DEPLOY_ARGS = { service: 'checkout', version: '2.1.0', environment: 'production' };
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
const assistant = (text: string) => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'test-model',
  stopReason: 'endTurn',
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const BUDGETS = {
  LEGACY_STREAM_MAX_EVENTS: '16',
  LEGACY_REPLAY_PAGE_SIZE: '2',
  MAX_STREAMS_PER_SESSION: '3',
  MAX_RUNNING_EXCHANGES_PER_SESSION: '2',
  MAX_REPEATED_ANSWERS: '1',
  MAX_ROUND_INPUT_BYTES: '2048',
  CAPACITY_RETRY_AFTER_S: '9',
};

/** Polls until `done` holds (returns the last value either way, for the assertion to show). */
async function eventually<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await sleep(200);
    value = await probe();
  }
  return value;
}

async function expectBusy(response: Response, what: string): Promise<void> {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe('9');
  const body = (await response.json()) as JsonRpcMessage;
  expect(body.error).toMatchObject({
    code: SERVER_BUSY,
    message: expect.stringContaining(what),
    data: { retryAfterS: 9 },
  });
}

async function initializeOverSse(
  sse: Awaited<ReturnType<typeof openSseSession>>,
  capabilities: Record<string, unknown>,
) {
  await sse.post({
    jsonrpc: '2.0',
    id: 'init',
    method: 'initialize',
    params: { protocolVersion: '2024-11-05', capabilities, clientInfo: { name: 't', version: '1' } },
  });
  await sse.stream.until((m) => isResponseTo(m, 'init'), 'initialize response');
  await sse.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

async function startGreet(session: LegacySession, id?: number) {
  const { id: callId, stream } = await session.request(
    'tools/call',
    { name: 'greet', arguments: {} },
    id !== undefined ? { id } : {},
  );
  const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'elicitation/create request for greet');
  return { callId, stream, ask };
}

async function streamEvents(service: TestService, streamId: string) {
  const { rows } = await service.pool.query<{ id: string; message_key: string; final: boolean }>(
    'SELECT id, message_key, final FROM legacy_stream_events WHERE stream_id = $1 ORDER BY id',
    [streamId],
  );
  return rows;
}

async function legacyCallOf(service: TestService, sessionId: string) {
  const { rows } = await service.pool.query<{ exchange_id: string; stream_id: string }>(
    'SELECT exchange_id, stream_id FROM legacy_calls WHERE session_id = $1 ORDER BY created_at DESC LIMIT 1',
    [sessionId],
  );
  return rows[0]!;
}

describe('handshake-era budgets', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(BUDGETS);
  });
  afterAll(async () => {
    await service?.close();
  });

  describe('a stream keeps at most LEGACY_STREAM_MAX_EVENTS events', () => {
    it('drops the oldest events of a 2024-11-05 session stream past the cap, keeping the newest', async () => {
      const sse = await openSseSession(service.url);
      try {
        for (let i = 1; i <= 24; i++)
          expect((await sse.post({ jsonrpc: '2.0', id: `ping-${i}`, method: 'ping' })).status).toBe(202);
        await sse.stream.until((m) => isResponseTo(m, 'ping-24'), 'the last ping response');
        const kept = await streamEvents(service, `sse:${sse.sessionId}`);
        expect(kept.length).toBe(16);
        // Replies of one stream are appended as each request finishes (after its 202), so two pings
        // may swap places; which events were kept is what matters: the newest 16, give or take those swaps.
        const keptPings = kept.map((e) => Number(/ping-(\d+)/.exec(e.message_key)![1]));
        expect(Math.min(...keptPings)).toBeGreaterThanOrEqual(7);
        expect(keptPings).toContain(24);
        // The live consumer still got every response, exactly once.
        const delivered = sse.stream.messages.map((m) => m.message.id).filter((id) => String(id).startsWith('ping-'));
        expect([...delivered].sort()).toEqual(Array.from({ length: 24 }, (_, i) => `ping-${i + 1}`).sort());
      } finally {
        sse.close();
      }
    });

    it('keeps a still-open request; a Last-Event-ID that was dropped replays from the oldest kept, page by page', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { callId, stream, ask } = await startGreet(session);
        const primingId = stream.eventIds[0]!;
        stream.close();
        const { stream_id: streamId } = await legacyCallOf(service, session.sessionId);
        // Grow the call's stream past its cap (as a chatty handler's notifications would).
        const store = createLegacyStorePg(service.pool, service.config.limits);
        for (let i = 1; i <= 30; i++) {
          await store.appendMessage({
            sessionId: session.sessionId,
            streamId,
            messageKey: `filler:${i}`,
            message: {
              jsonrpc: '2.0',
              method: 'notifications/message',
              params: { level: 'info', data: `filler ${i}` },
            },
          });
        }
        const kept = await streamEvents(service, streamId);
        expect(kept.map((e) => e.message_key)).not.toContain('prime');
        expect(kept.map((e) => e.message_key)).toContain(`request:${String(ask.message.id)}`); // still open: kept
        expect(kept.filter((e) => e.message_key.startsWith('filler:')).map((e) => e.message_key)).toEqual(
          Array.from({ length: 16 }, (_, i) => `filler:${i + 15}`),
        );
        // One read is one page, never the whole stream.
        expect(await store.readStream(streamId, 0)).toHaveLength(2);

        const resumed = await session.listen({ lastEventId: primingId });
        expect(resumed.status).toBe(200);
        await resumed.until((m) => m.params?.data === 'filler 30', 'the newest filler on the resumed stream');
        const replayed = resumed.messages.map((m) => m.message);
        expect(replayed[0]).toEqual(ask.message);
        expect(replayed.slice(1).map((m) => m.params?.data)).toEqual(
          Array.from({ length: 16 }, (_, i) => `filler ${i + 15}`),
        );
        expect(await session.respond(ask.message.id!, accept({ name: 'Ada' }))).toBe(202);
        const final = await resumed.until((m) => isResponseTo(m, callId), 'the result of greet');
        expect(final.message.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
      } finally {
        await session.close();
      }
    });
  });

  describe('error messages echo at most 128 characters of a client string', () => {
    const longMethod = `x/${'m'.repeat(750_000)}`;

    it('on Streamable HTTP and on the 2024-11-05 stream (and so in what is stored)', async () => {
      const session = await LegacySession.open(service.url);
      try {
        const reply = await session.call(longMethod);
        expect(reply.error?.code).toBe(-32601);
        expect(reply.error!.message.length).toBeLessThan(200);
        expect(reply.error!.message).toMatch(/^Method not found: x\/m+…$/);
      } finally {
        await session.close();
      }
      const sse = await openSseSession(service.url);
      try {
        await sse.post({ jsonrpc: '2.0', id: 'long', method: longMethod });
        const reply = await sse.stream.until((m) => isResponseTo(m, 'long'), 'the error for the unknown method');
        expect(reply.message.error!.message.length).toBeLessThan(200);
        const { rows } = await service.pool.query<{ size: number }>(
          `SELECT octet_length(message::text) AS size FROM legacy_stream_events WHERE stream_id = $1 AND message_key = 'response:"long"'`,
          [`sse:${sse.sessionId}`],
        );
        expect(rows[0]!.size).toBeLessThan(400);
      } finally {
        sse.close();
      }
    });

    it('on the modern endpoint', async () => {
      const method = `x/${'m'.repeat(5_000)}`;
      const reply = await rawPost(
        service.url,
        {
          jsonrpc: '2.0',
          id: 1,
          method,
          params: {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
      );
      expect(reply.body.error?.code).toBe(-32601);
      expect(reply.body.error!.message).toMatch(/^Method not found: x\/m+…$/);
      expect(reply.body.error!.message.length).toBeLessThan(200);
    });
  });

  describe('stream and exchange caps: -32000 with HTTP 429 and Retry-After', () => {
    it('refuses a GET stream, and a call (which opens a stream), past MAX_STREAMS_PER_SESSION', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const open = [await session.listen(), await session.listen(), await session.listen()];
        expect(open.map((s) => s.status)).toEqual([200, 200, 200]);
        await expectBusy(
          await fetch(service.url, { headers: { ...session.headers(), accept: 'text/event-stream' } }),
          'open streams of this session',
        );
        await expectBusy(
          await session.post({
            jsonrpc: '2.0',
            id: 77,
            method: 'tools/call',
            params: { name: 'greet', arguments: {} },
          }),
          'open streams of this session',
        );
        // Requests that answer inline need no stream.
        expect((await session.call('ping')).result).toEqual({});
        open[0]!.close();
        await sleep(300);
        expect((await session.listen()).status).toBe(200);
      } finally {
        await session.close();
      }
    });

    it('refuses a new exchange past MAX_RUNNING_EXCHANGES_PER_SESSION, even with its streams closed; a retried request id re-attaches', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const first = await startGreet(session, 1);
        const second = await startGreet(session, 2);
        first.stream.close();
        second.stream.close();
        await sleep(300);
        await expectBusy(
          await session.post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'greet', arguments: {} } }),
          'running exchanges of this session',
        );
        const again = await session.request('tools/call', { name: 'greet', arguments: {} }, { id: 1 });
        expect(again.stream.status).toBe(200);
        expect(await session.respond(first.ask.message.id!, accept({ name: 'Lin' }))).toBe(202);
        await again.stream.until((m) => isResponseTo(m, 1), 'the result of the first greet');
        // One of the two finished: a new exchange may start.
        const third = await startGreet(session, 4);
        expect(third.ask.message.method).toBe('elicitation/create');
      } finally {
        await session.close();
      }
    });

    it('on the 2024-11-05 transport the refused call gets its JSON-RPC error on the stream', async () => {
      const sse = await openSseSession(service.url);
      try {
        await initializeOverSse(sse, { elicitation: {} });
        for (const id of ['g1', 'g2', 'g3']) {
          expect(
            (await sse.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'greet', arguments: {} } }))
              .status,
          ).toBe(202);
          if (id !== 'g3')
            await sse.stream.until((m) => isRequest(m, 'elicitation/create'), `the elicitation of ${id}`);
        }
        const refused = await sse.stream.until((m) => isResponseTo(m, 'g3'), 'the answer to the third call');
        expect(refused.message.error).toMatchObject({
          code: SERVER_BUSY,
          message: expect.stringContaining('running exchanges of this session'),
        });
      } finally {
        sse.close();
      }
    });
  });

  describe('answers', () => {
    async function startDeploy(session: LegacySession) {
      const { id, stream } = await session.request('tools/call', { name: 'deploy_service', arguments: DEPLOY_ARGS });
      const roots = await stream.until((m) => isRequest(m, 'roots/list'), 'roots/list request');
      const sampling = await stream.until(
        (m) => isRequest(m, 'sampling/createMessage'),
        'sampling/createMessage request',
      );
      return { id, stream, rootsId: roots.message.id!, samplingId: sampling.message.id! };
    }

    it('drops the repeats of an answer its workflow has: no second signal, no repeat counted', async () => {
      const session = await LegacySession.open(service.url, {
        capabilities: { elicitation: {}, sampling: {}, roots: {} },
      });
      const connection = await Connection.connect({ address: service.config.temporal.address });
      try {
        const { rootsId } = await startDeploy(session);
        const roots = { roots: [{ uri: 'file:///src/checkout' }] };
        for (let i = 0; i < 4; i++) expect(await session.respond(rootsId, roots)).toBe(202);
        const { exchange_id: exchangeId } = await legacyCallOf(service, session.sessionId);
        const { rows } = await service.pool.query<{ repeats: number }>(
          'SELECT repeats FROM legacy_open_requests WHERE id = $1',
          [rootsId],
        );
        expect(rows[0]!.repeats).toBe(0);
        // Each repeat asked the workflow, which answers once it has applied what its history holds.
        const handle = new Client({
          connection,
          dataConverter: serviceDataConverter(service.config.payloadCodec),
        }).workflow.getHandle(workflowIdFor(exchangeId));
        const signals = ((await handle.fetchHistory()).events ?? []).filter(
          (e) => e.workflowExecutionSignaledEventAttributes,
        );
        expect(signals).toHaveLength(1);
      } finally {
        await connection.close();
        await session.close();
      }
    });

    it("refuses with HTTP 413 an answer that would take the round's answers past MAX_ROUND_INPUT_BYTES; the request stays open", async () => {
      const session = await LegacySession.open(service.url, {
        capabilities: { elicitation: {}, sampling: {}, roots: {} },
      });
      try {
        const { stream, rootsId, samplingId } = await startDeploy(session);
        expect(await session.respond(rootsId, { roots: [{ uri: `file:///src/${'r'.repeat(1_200)}` }] })).toBe(202);
        const tooBig = await session.post({ jsonrpc: '2.0', id: samplingId, result: assistant('s'.repeat(1_200)) });
        expect(tooBig.status).toBe(413);
        const body = (await tooBig.json()) as JsonRpcMessage;
        expect(body.error).toMatchObject({ code: -32602, data: { path: 'result', limit: 2048 } });
        const { rows } = await service.pool.query<{ status: string }>(
          'SELECT status FROM legacy_open_requests WHERE id = $1',
          [samplingId],
        );
        expect(rows[0]!.status).toBe('open');
        // A smaller answer is taken and the exchange moves on.
        expect(await session.respond(samplingId, assistant('Adds retries.'))).toBe(202);
        const approval = await stream.until((m) => isRequest(m, 'elicitation/create'), 'the round-2 elicitation');
        expect(approval.message.params).toMatchObject({ message: expect.stringContaining('Adds retries.') });
      } finally {
        await session.close();
      }
    });
  });

  it('indexes the lookup of a session’s open requests by their first event', async () => {
    const client = await service.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>({
        text: `EXPLAIN ${OPEN_REQUESTS_OF_SESSION_SQL}`,
        values: ['any-session'],
      });
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('legacy_stream_events_server_request_idx');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});

describe('handshake-era capacity across the deployment', () => {
  let main: TestService;
  let tight: TestService;
  beforeAll(async () => {
    main = await startTestService({ SSE_MAX_BUFFERED_BYTES: '65536' });
    tight = await startTestService({
      TEMPORAL_TASK_QUEUE: main.config.temporal.taskQueue,
      MAX_OPEN_SESSIONS: '1',
      MAX_OPEN_STREAMS: '1',
      CAPACITY_RETRY_AFTER_S: '9',
    });
    await tight.stopWorker();
  });
  afterAll(async () => {
    await tight?.close();
    await main?.close();
  });

  it('refuses initialize and GET /sse once MAX_OPEN_SESSIONS sessions are open (counted in Postgres)', async () => {
    const open = await LegacySession.open(main.url); // at least this one is open
    try {
      const init = await fetch(tight.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      });
      await expectBusy(init, 'open sessions');
      await expectBusy(
        await fetch(tight.url.replace(/\/mcp$/, '/sse'), { headers: { accept: 'text/event-stream' } }),
        'open sessions',
      );
    } finally {
      await open.close();
    }
  });

  it('refuses a stream past MAX_OPEN_STREAMS on one API process, whichever session asks', async () => {
    const a = await LegacySession.open(main.url);
    const b = await LegacySession.open(main.url);
    try {
      const held = await a.listen({ url: tight.url });
      expect(held.status).toBe(200);
      await expectBusy(
        await fetch(tight.url, { headers: { ...b.headers(), accept: 'text/event-stream' } }),
        'open streams on this server',
      );
      expect((await b.listen()).status).toBe(200); // another process has room
      held.close();
      await sleep(300);
      expect((await b.listen({ url: tight.url })).status).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
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

  it('logs a digest of the session id, never the id', async () => {
    const api = await startApiProcess({
      DATABASE_URL: main.config.database.url,
      TEMPORAL_ADDRESS: main.config.temporal.address,
      TEMPORAL_TASK_QUEUE: main.config.temporal.taskQueue,
      ...TEST_KEY_RINGS,
    });
    try {
      const session = await LegacySession.open(api.url, { capabilities: { elicitation: {} } });
      const { callId, stream, ask } = await startGreet(session);
      expect(await session.respond(ask.message.id!, accept({ name: 'Noor' }))).toBe(202);
      await stream.until((m) => isResponseTo(m, callId), 'the result of greet');
      expect(await session.respond('never-issued', {})).toBe(202);
      expect(await session.terminate()).toBe(200);
      const output = await eventually(
        async () => api.output(),
        (text) => text.includes('session ended by the client'),
      );
      expect(output).toContain(`"session":"${sessionRef(session.sessionId).session}"`);
      expect(output).toContain('session initialized');
      expect(output).not.toContain(session.sessionId);
    } finally {
      await api.kill();
    }
  });
});
