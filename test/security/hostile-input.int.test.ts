/**
 * Hostile input gets a clear JSON-RPC error with the right HTTP status and the field path, and
 * loses nothing: no exchange is started by a refused first leg, and an exchange whose answer was
 * refused still takes a good one. Both eras, real Temporal dev server and Postgres.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { demoHandlers } from '../../built-in-handlers/demo';
import { defineTool } from '@durable-mcp/handlers';
import { INVALID_PARAMS, INVALID_REQUEST } from '../../lib/protocol/json-rpc-codes';
import { SERVER_BUSY } from '../../lib/protocol/rpc-error';
import { countExchanges, exchangeOfSession } from '../support/exchange-rows';
import { isRequest, isResponseTo, LegacySession, type JsonRpcId } from '../support/legacy-client';
import { accept, rawCall, rawPost } from '../support/raw-mcp';
import { startTestService, useTestService, type TestService } from '../support/test-service';

/** A whole 2026-07-28 `tools/call` of greet as a body, for tests that choose every header themselves. */
const GREET_CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'greet',
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    },
  },
});
const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'greet' };

describe('hostile input on the modern era', () => {
  const service = useTestService({ MAX_ROUND_INPUT_BYTES: '4096', MAX_JSON_DEPTH: '32' });

  it.each([
    [
      "a NUL in a first leg's inputResponses",
      { inputResponses: { name: accept({ name: 'a\u0000' }) } },
      'params.inputResponses.name.content.name',
      /NUL/,
    ],
    [
      'a lone surrogate in the arguments',
      { arguments: { greeting: '\ud800' } },
      'params.arguments.greeting',
      /surrogate/,
    ],
  ])('refuses %s with -32602 naming the path, and starts no exchange', async (_what, extra, path, reason) => {
    const before = await countExchanges(service.pool);
    const reply = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {}, ...extra });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code).toBe(INVALID_PARAMS);
    expect(reply.body.error?.data).toEqual({ path });
    expect(reply.body.error?.message).toMatch(reason);
    expect(await countExchanges(service.pool)).toBe(before);
  });

  it('refuses a retry whose answer holds a lone surrogate, and the exchange still takes a good answer', async () => {
    const first = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
    const retry = { name: 'greet', arguments: {}, requestState: first.body.result!.requestState };
    const bad = await rawCall(service.url, 'tools/call', {
      ...retry,
      inputResponses: { name: accept({ name: 'x\udc00' }) },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.data).toEqual({ path: 'params.inputResponses.name.content.name' });
    const good = await rawCall(service.url, 'tools/call', {
      ...retry,
      inputResponses: { name: accept({ name: 'Ada' }) },
    });
    expect(good.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
  });

  it.each([['text/plain'], ['application/x-www-form-urlencoded'], ['multipart/form-data; boundary=x'], [undefined]])(
    'refuses a cross-site style POST (Content-Type %s) with 415 -32600 unread, and starts no exchange',
    async (contentType) => {
      const before = await countExchanges(service.pool);
      // What a web page can send to any server its visitor reaches, without a CORS preflight.
      const response = await fetch(service.url, {
        method: 'POST',
        headers: { ...MODERN_HEADERS, ...(contentType ? { 'content-type': contentType } : {}) },
        body: Buffer.from(GREET_CALL),
      });
      expect(response.status).toBe(415);
      const body = (await response.json()) as { error?: { code: number; message: string; data?: unknown } };
      expect(body.error).toMatchObject({
        code: INVALID_REQUEST,
        message: 'Content-Type must be application/json',
        data: { contentType: contentType ?? null },
      });
      expect(await countExchanges(service.pool)).toBe(before);
    },
  );

  it('refuses a deeply nested body with -32602, not a 500', async () => {
    const depth = 100_000;
    const body = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"greet","arguments":{"deep":${'['.repeat(depth)}${']'.repeat(depth)}}}}`;
    const reply = await rawPost(service.url, body, MODERN_HEADERS);
    expect(reply.status).toBe(400);
    expect(reply.body.id).toBe(7);
    expect(reply.body.error?.code).toBe(INVALID_PARAMS);
    expect(reply.body.error?.data).toMatchObject({ maxDepth: 32 });
  });

  it('refuses a request id over MAX_REQUEST_ID_LENGTH with 400 -32600 before anything is recorded', async () => {
    const before = await countExchanges(service.pool);
    const reply = await rawPost(
      service.url,
      { jsonrpc: '2.0', id: 'i'.repeat(3000), method: 'tools/call', params: { name: 'greet', arguments: {} } },
      MODERN_HEADERS,
    );
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code).toBe(INVALID_REQUEST);
    expect(reply.body.error?.data).toEqual({ path: 'id', limit: 256 });
    expect(await countExchanges(service.pool)).toBe(before);
  });

  it('refuses a resource URI over the length limit that matches a template, before Temporal sees it', async () => {
    const uri = `runbooks://${'x'.repeat(3000)}`;
    const before = await countExchanges(service.pool);
    const reply = await rawCall(service.url, 'resources/read', { uri });
    expect(reply.status).toBe(400);
    expect(reply.body.error?.code).toBe(INVALID_PARAMS);
    expect(reply.body.error?.data).toMatchObject({ path: 'params.uri', limit: 1024 });
    expect(await countExchanges(service.pool)).toBe(before);
  });

  it('refuses a round input over MAX_ROUND_INPUT_BYTES with 413, on the first leg and on a retry', async () => {
    const big = 'x'.repeat(5000);
    const first = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: { greeting: big } });
    expect(first.status).toBe(413);
    expect(first.body.error?.code).toBe(INVALID_PARAMS);
    expect(first.body.error?.data).toMatchObject({ path: 'params', limit: 4096 });

    const ask = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
    const retry = { name: 'greet', arguments: {}, requestState: ask.body.result!.requestState };
    const bigAnswer = await rawCall(service.url, 'tools/call', {
      ...retry,
      inputResponses: { name: accept({ name: big }) },
    });
    expect(bigAnswer.status).toBe(413);
    const good = await rawCall(service.url, 'tools/call', {
      ...retry,
      inputResponses: { name: accept({ name: 'Ada' }) },
    });
    expect(good.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
  });
});

describe('capacity', () => {
  it('answers a first leg past MAX_RUNNING_EXCHANGES with 429, -32000 and Retry-After', async () => {
    const probe = await startTestService();
    const { rows } = await probe.pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM exchanges WHERE status = 'running'",
    );
    await probe.close();
    const service = await startTestService({
      MAX_RUNNING_EXCHANGES: String(Number(rows[0]!.n) + 1),
      CAPACITY_RETRY_AFTER_S: '7',
    });
    try {
      const first = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} }); // waits for its answer: running
      expect(first.body.result?.resultType).toBe('input_required');
      const response = await fetch(service.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...MODERN_HEADERS,
        },
        body: GREET_CALL,
      });
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('7');
      const body = (await response.json()) as { error: { code: number; data: unknown } };
      expect(body.error.code).toBe(SERVER_BUSY);
    } finally {
      await service.close();
    }
  });

  it('answers a leg past MAX_INFLIGHT_LEGS with 429 while another leg waits', async () => {
    const service = await startTestService({ MAX_INFLIGHT_LEGS: '1', HTTP_WAIT_MS: '3000' });
    try {
      const ask = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
      await service.stopWorker(); // the answered round cannot run: its leg waits the whole HTTP_WAIT_MS
      const waiting = rawCall(service.url, 'tools/call', {
        name: 'greet',
        arguments: {},
        inputResponses: { name: accept({ name: 'Ada' }) },
        requestState: ask.body.result!.requestState,
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const refused = await rawCall(service.url, 'tools/call', { name: 'greet', arguments: {} });
      expect(refused.status).toBe(429);
      expect(refused.body.error?.code).toBe(SERVER_BUSY);
      expect((await waiting).body.result?.resultType).toBe('input_required');
    } finally {
      await service.close();
    }
  });
});

describe('hostile input on the legacy era', () => {
  const service = useTestService();

  it('refuses a NUL in a call and in a response with 400 -32602, and the open request still takes a good answer', async () => {
    const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
    try {
      const call = await session.post({
        jsonrpc: '2.0',
        id: 90,
        method: 'tools/call',
        params: { name: 'greet', arguments: { greeting: 'a\u0000' } },
      });
      expect(call.status).toBe(400);
      expect(((await call.json()) as { error: { data: unknown } }).error.data).toEqual({
        path: 'params.arguments.greeting',
      });

      const { id: callId, stream } = await session.request('tools/call', { name: 'greet', arguments: {} });
      const ask = await stream.until((m) => isRequest(m, 'elicitation/create'), 'elicitation/create');
      const askId = ask.message.id as JsonRpcId;
      const bad = await session.post({ jsonrpc: '2.0', id: askId, result: accept({ name: '\ud800' }) });
      expect(bad.status).toBe(400);
      expect((await exchangeOfSession(service.pool, session.sessionId, callId)).status).toBe('running');

      expect(await session.respond(askId, accept({ name: 'Ada' }))).toBe(202);
      const done = await stream.until((m) => m.result !== undefined || m.error !== undefined, 'the call response');
      expect(isResponseTo(done.message, done.message.id as JsonRpcId)).toBe(true);
      expect(done.message.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    } finally {
      await session.close();
    }
  });
});

describe('a 2026-07-28 client that stops reading its notification stream', () => {
  const chatty = defineTool({
    tool: { name: 'chatty', inputSchema: { type: 'object' } },
    async run(_args, ctx) {
      for (let i = 0; i < 80; i += 1) await ctx.sendLog('info', { line: i, text: 'x'.repeat(100_000) });
      return { content: [{ type: 'text', text: 'done' }] };
    },
  });
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(
      { SSE_MAX_BUFFERED_BYTES: '65536' },
      { handlers: { ...demoHandlers, name: 'chatty', tools: [chatty] } },
    );
  });
  afterAll(async () => {
    await service?.close();
  });

  it('has its stream closed once it leaves more than SSE_MAX_BUFFERED_BYTES unread, not buffered without end', async () => {
    const { port, hostname } = new URL(service.url);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'chatty',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/logLevel': 'info',
        },
      },
    });
    const socket = connect(Number(port), hostname);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    let received = 0;
    socket.on('data', (chunk) => {
      received += chunk.length;
      if (received > 0) socket.pause(); // read the headers' first chunk, then stop reading
    });
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
        `MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: chatty\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      closed.then(() => 'closed'),
      new Promise((resolve) => (timer = setTimeout(() => resolve('still open'), 60_000))),
    ]);
    clearTimeout(timer);
    socket.destroy();
    expect(outcome).toBe('closed');
  });
});

describe('DNS rebinding against an API on all interfaces (HOST=0.0.0.0), on every route', () => {
  const service = useTestService({ HOST: '0.0.0.0', ALLOW_UNAUTHENTICATED: 'true', ALLOWED_HOSTS: 'mcp.lan' });

  /** A GET of `path` with this Host header: what a page on a rebound name reads, no Origin needed. */
  const get = (path: string, host: string) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL(service.url);
      const req = request(
        { host: '127.0.0.1', port: url.port, path, headers: { host, accept: 'text/event-stream' } },
        (res) => {
          resolve(res.statusCode ?? 0);
          res.destroy();
        },
      );
      req.on('error', reject);
      req.end();
    });

  it('refuses a Host that is none of its names with 403, and opens a stream for one that is', async () => {
    expect(await get('/sse', 'rebound.evil.example:80')).toBe(403);
    expect(await get('/sse', 'mcp.lan:3000')).toBe(200);
    expect(await get('/sse', '127.0.0.1')).toBe(200);
  });

  // With no METRICS_TOKEN, /metrics is open to whoever reaches the port: a rebound page must not be one.
  it.each(['/metrics', '/healthz', '/readyz', '/admin/api/exchanges', '/codec/sign-in', '/answers', '/nowhere'])(
    'refuses a rebound name on every route: %s',
    async (path) => {
      expect(await get(path, 'rebound.evil.example')).toBe(403);
    },
  );

  it('serves /metrics and /healthz to its names and to an IP address (a probe names the pod by it)', async () => {
    for (const host of ['mcp.lan:3000', '127.0.0.1', '10.1.2.3:3000'])
      for (const path of ['/metrics', '/healthz'])
        expect({ host, path, status: await get(path, host) }).toEqual({ host, path, status: 200 });
  });
});
