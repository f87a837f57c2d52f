/**
 * A real API process stopped with SIGTERM while it serves every kind of client at once: a
 * 2026-07-28 leg waiting on its round, a 2025-11-25 call's stream and its session's GET stream, an
 * older (2025-06-18) call's stream, an idle and a busy 2024-11-05 session, and a request on its way in. Each
 * must end the way its client can go on from (a state-only result, a reconnect hint and a clean
 * end, the pending result for a call its client cannot resume, a 503), no new connection is taken, the process exits 0 within its drain grace, and the
 * exchanges then finish on another replica: the call resumed there by Last-Event-ID, the leg come
 * back there with its requestState.
 */
import { connect } from 'node:net';
import { isRequest, isResponseTo, LegacySession, MessageStream, type JsonRpcMessage } from '../support/legacy-client';
import { accept, callUntilAnswered, isComeBack, rawCall } from '../support/raw-mcp';
import { exchangeOfSession, exchangeStatus } from '../support/exchange-rows';
import { startApiProcess, type ApiProcess } from '../support/service-processes';
import { startTestService, TEST_KEY_RINGS, type TestService } from '../support/test-service';

const GRACE_MS = 4_000;
/** What the reconnect hint of a draining stream asks for (stream-delivery.ts's RECONNECT_RETRY_MS). */
const RETRY_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const count = (text: string, msg: string) => text.split('\n').filter((line) => line.includes(`"msg":"${msg}"`)).length;

/**
 * A request whose first header line is sent now and the rest on `finish()`: one already on its way
 * when the drain begins, as on a kept-alive connection. Resolves with the raw response.
 */
function requestOnItsWay(url: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let response = '';
  socket.on('data', (chunk) => (response += chunk));
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(response)));
  socket.on('error', () => undefined);
  const opened = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return {
    async start() {
      await opened;
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}:${port}\r\n`);
    },
    finish() {
      socket.write('\r\n');
      return closed;
    },
  };
}

/** Whether a new TCP connection to `url` is taken: 'connected', or the error code it failed with. */
function connectionAttempt(url: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

/** A 2024-11-05 session with a call waiting on its ask: its stream, its id and the call's request id. */
async function busyHttpSse(url: string) {
  const stream = await openHttpSse(url);
  const endpoint = new URL(stream.events.find((e) => e.event === 'endpoint')!.data, url);
  const post = async (message: object) => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', ...message }),
    });
    expect(response.status).toBe(202);
  };
  await post({
    id: 'init',
    method: 'initialize',
    params: {
      protocolVersion: '2024-11-05',
      capabilities: { elicitation: {} },
      clientInfo: { name: 't', version: '1' },
    },
  });
  await stream.until((m) => isResponseTo(m, 'init'), 'the response to initialize');
  await post({ method: 'notifications/initialized' });
  await post({ id: 'call', method: 'tools/call', params: { name: 'greet', arguments: {} } });
  await stream.until((m) => isRequest(m, 'elicitation/create'), 'the ask of greet on the 2024-11-05 session');
  return { stream, sessionId: endpoint.searchParams.get('sessionId')! };
}

/** GET /sse of the 2024-11-05 transport, read until its `endpoint` event. */
async function openHttpSse(url: string): Promise<MessageStream> {
  const abort = new AbortController();
  const response = await fetch(url.replace(/\/mcp$/, '/sse'), {
    headers: { accept: 'text/event-stream' },
    signal: abort.signal,
  });
  const stream = await MessageStream.from(response, abort, 'GET /sse stream');
  const deadline = Date.now() + 10_000;
  while (!stream.events.some((e) => e.event === 'endpoint')) {
    if (stream.ended || Date.now() > deadline) throw new Error(`GET /sse sent no endpoint event: ${stream.status}`);
    await stream.settle(100);
  }
  return stream;
}

const textOf = (message: JsonRpcMessage) => (message.result?.content as Array<{ text: string }> | undefined)?.[0]?.text;

describe('an API process stopped with SIGTERM', () => {
  let replica: TestService; // another replica, and the worker
  let doomed: ApiProcess;

  beforeAll(async () => {
    replica = await startTestService();
    doomed = await startApiProcess({
      DATABASE_URL: replica.config.database.url,
      TEMPORAL_ADDRESS: replica.config.temporal.address,
      TEMPORAL_TASK_QUEUE: replica.config.temporal.taskQueue,
      ...TEST_KEY_RINGS,
      API_DRAIN_GRACE_MS: String(GRACE_MS),
    });
  });
  afterAll(async () => {
    await doomed?.kill('SIGKILL');
    await replica?.close();
  });

  it('drains every client to where it can go on, exits 0 within its grace, and the exchanges finish elsewhere', async () => {
    // A 2025-11-25 call waiting on its ask, and the session's GET stream.
    const session = await LegacySession.open(doomed.url, { capabilities: { elicitation: {} } });
    const call = await session.request('tools/call', { name: 'greet', arguments: {} });
    const ask = await call.stream.until((m) => isRequest(m, 'elicitation/create'), 'the ask of greet');
    const standing = await session.listen();
    // An older client's call: its stream cannot be resumed, so it is kept while the drain lasts.
    const older = await LegacySession.open(doomed.url, {
      protocolVersion: '2025-06-18',
      capabilities: { elicitation: {} },
    });
    const olderCall = await older.request('tools/call', { name: 'greet', arguments: {} });
    const olderAsk = await olderCall.stream.until((m) => isRequest(m, 'elicitation/create'), 'the older ask');
    // An idle 2024-11-05 session, and one whose call waits on its ask.
    const httpSse = await openHttpSse(doomed.url);
    const busy = await busyHttpSse(doomed.url);
    // A 2026-07-28 leg waiting on its first round: no worker runs it.
    await replica.stopWorker();
    const started = count(doomed.output(), 'exchange started');
    const waiting = rawCall(doomed.url, 'tools/call', { name: 'greet', arguments: {} });
    await until('the modern leg to wait', () => count(doomed.output(), 'exchange started') > started);
    const onItsWay = requestOnItsWay(doomed.url);
    await onItsWay.start();

    const stopped = Date.now();
    const exited = doomed.kill('SIGTERM', 30_000);
    await until('the drain to begin', () => doomed.output().includes('"msg":"API draining"'), 5_000);

    // The waiting leg: its state-only result at once, on a connection that then closes.
    const comeBack = await waiting;
    expect(Date.now() - stopped).toBeLessThan(2_000);
    expect(comeBack.status).toBe(200);
    expect(isComeBack(comeBack)).toBe(true);
    expect(comeBack.headers?.get('connection')).toBe('close');

    // The 2025-11-25 streams: a reconnect hint after the last event id, then a clean end.
    for (const stream of [call.stream, standing]) {
      await stream.drain(3_000);
      expect({ failure: stream.failure, retryMs: stream.retryMs }).toEqual({ failure: undefined, retryMs: RETRY_MS });
    }
    expect(Date.now() - stopped).toBeLessThan(2_000);
    // The hint restates the last event id the stream sent, with no data.
    const [before, hint] = call.stream.eventIds.slice(-2);
    expect(call.stream.events.at(-1)).toEqual({ id: before, event: 'message', data: '' });
    expect(hint).toBe(before);

    // The idle 2024-11-05 session ends at once too (its client's EventSource reconnects).
    await httpSse.drain(3_000);
    expect({ failure: httpSse.failure, retryMs: httpSse.retryMs }).toEqual({ failure: undefined, retryMs: RETRY_MS });
    // The busy one cannot move to another replica: it is kept while its call runs.
    expect(busy.stream.ended).toBe(false);

    // A request on its way in is answered 503 with Retry-After, its connection closed; a new
    // connection is refused.
    const refusal = await onItsWay.finish();
    expect(refusal).toMatch(/^HTTP\/1\.1 503 /);
    expect(refusal).toMatch(/\r\nretry-after: 1\r\n/i);
    expect(refusal).toMatch(/\r\nconnection: close\r\n/i);
    expect(await connectionAttempt(doomed.url)).toBe('ECONNREFUSED');
    // A client that still holds a kept-alive connection gets the 503, or finds it closed and is refused.
    const again = await rawCall(doomed.url, 'tools/list', {}).then(
      (reply) => reply.status,
      (error: Error) => (error.cause as { code?: string } | undefined)?.code,
    );
    expect([503, 'ECONNREFUSED']).toContain(again);

    // The older call's stream and the busy 2024-11-05 session are kept until just before the grace
    // runs out. Then the busy session ends cleanly with the reconnect hint; the older call, whose
    // client cannot resume it, is answered with the pending result (await_answer gets its outcome).
    for (const stream of [olderCall.stream, busy.stream]) {
      await stream.drain(GRACE_MS + 2_000);
      expect(Date.now() - stopped).toBeGreaterThan(GRACE_MS - 1_500);
    }
    expect({ failure: busy.stream.failure, retryMs: busy.stream.retryMs }).toEqual({
      failure: undefined,
      retryMs: RETRY_MS,
    });
    expect(olderCall.stream.failure).toBeUndefined();
    const olderAnswer = olderCall.stream.messages.find((m) => isResponseTo(m.message, olderCall.id))?.message;
    expect(olderAnswer?.result?._meta).toMatchObject({
      'io.durable-mcp/pending': { status: 'pending', tool: 'greet' },
    });

    await exited;
    expect(await doomed.exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - stopped).toBeLessThan(GRACE_MS);

    // Everything goes on at the other replica once a worker runs again; the 2024-11-05 session
    // ended with its stream, as when its client leaves, and its exchange records the cancel.
    await replica.startWorker();
    const busyExchange = await exchangeOfSession(replica.pool, busy.sessionId);
    await until(
      'the 2024-11-05 exchange to record its cancel',
      async () => (await exchangeStatus(replica.pool, busyExchange.id)) === 'cancelled',
    );
    const resumed = await session.listen({ url: replica.url, lastEventId: call.stream.lastEventId });
    expect(await session.respond(ask.message.id!, accept({ name: 'Ada' }), { url: replica.url })).toBe(202);
    const result = await resumed.until((m) => isResponseTo(m, call.id), 'the result, resumed on the other replica');
    expect(textOf(result.message)).toBe('Hello, Ada!');

    const state = comeBack.body.result!.requestState as string;
    const asked = await callUntilAnswered(replica.url, 'tools/call', {
      name: 'greet',
      arguments: {},
      requestState: state,
    });
    expect(asked.body.result?.resultType).toBe('input_required');
    const answered = await callUntilAnswered(replica.url, 'tools/call', {
      name: 'greet',
      arguments: {},
      inputResponses: { name: accept({ name: 'Grace' }) },
      requestState: asked.body.result!.requestState,
    });
    expect(answered.body.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Grace!' }] });

    // The older client answers its form, still open, at the other replica, and awaits its call there.
    expect(await older.respond(olderAsk.message.id!, accept({ name: 'Hopper' }), { url: replica.url })).toBe(202);
    const handle = (olderAnswer!.result!._meta as Record<string, { handle: string }>)['io.durable-mcp/pending']!.handle;
    const olderResult = await older.call(
      'tools/call',
      { name: 'await_answer', arguments: { handle } },
      { url: replica.url },
    );
    expect(textOf(olderResult)).toBe('Hello, Hopper!');
    await session.close();
    await older.close();
  });
});
