/**
 * Principals bound end to end, with real tokens from a real authorization server
 * (test/support/oauth-stack.ts): the caller a token names is the principal the handler sees, the
 * exchange is recorded under (Postgres, the `McpPrincipal` search attribute, the admin filter and
 * `npm run exchanges -- list --principal`), and the only one its requestState and its legacy
 * session work for: principal A's requestState under principal B's token is refused exactly like a
 * tampered one (-32602), and A's session under B is not found (404), on Streamable HTTP and on the
 * 2024-11-05 transport, whose official 1.x client also completes an exchange with its own OAuth
 * support. Each principal has its own budgets of running exchanges and open sessions (429).
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { ClientCredentialsProvider as LegacyClientCredentialsProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as LegacyStreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { MCP_PRINCIPAL } from '../../lib/exchange/search-attributes';
import { defineTool, inputRequired, type HandlerSet } from '@durable-mcp/handlers';
import { demoHandlers } from '../../built-in-handlers/demo';
import { run as exchangesCli } from '../../cli/exchanges/exchanges-command';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { admin, TEST_ADMIN_TOKEN } from '../support/admin-client';
import { isResponseTo, LegacySession, openSseSession, postMessage } from '../support/legacy-client';
import { CLIENTS, startOAuthStack, type ClientName, type OAuthStack } from '../support/oauth-stack';
import { accept, rawCall, type RpcReply } from '../support/raw-mcp';

/** Asks once, then says who the handler was told it runs for. */
const whoami = defineTool({
  tool: { name: 'whoami', inputSchema: { type: 'object' } },
  run(_args, ctx) {
    if (ctx.round === 1) {
      return inputRequired({
        inputRequests: {
          go: inputRequired.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } }),
        },
      });
    }
    return { content: [{ type: 'text', text: JSON.stringify(ctx.principal) }] };
  },
});

const handlers: HandlerSet = { ...demoHandlers, name: 'oauth-principals', tools: [...demoHandlers.tools, whoami] };

let stack: OAuthStack;
const tokens: Partial<Record<ClientName, string>> = {};
/** `Bearer <token>` for a client, fetched once. */
const bearer = async (name: ClientName) => (tokens[name] ??= await stack.bearer(name));

beforeAll(async () => {
  stack = await startOAuthStack(
    { ADMIN_TOKEN: TEST_ADMIN_TOKEN, MAX_RUNNING_EXCHANGES_PER_PRINCIPAL: '3', MAX_OPEN_SESSIONS_PER_PRINCIPAL: '4' },
    { handlers },
  );
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

/** A 2026-07-28 `tools/call` leg sent by `name`. */
async function leg(name: ClientName, tool: string, extra: Record<string, unknown> = {}): Promise<RpcReply> {
  const params = { name: tool, arguments: {}, ...extra };
  return rawCall(
    stack.service.url,
    'tools/call',
    params,
    { elicitation: {} },
    {
      headers: { authorization: await bearer(name) },
    },
  );
}

/** The answering leg of an ask: its requestState, with `key` accepted. */
const answer = (name: ClientName, tool: string, first: RpcReply, key: string, content: Record<string, unknown> = {}) =>
  leg(name, tool, { requestState: first.body.result!.requestState, inputResponses: { [key]: accept(content) } });

const exchangeIdOf = async (principal: string, target: string) =>
  (
    await stack.service.pool.query<{ id: string }>(
      'SELECT id FROM exchanges WHERE principal = $1 AND target = $2 ORDER BY created_at DESC LIMIT 1',
      [principal, target],
    )
  ).rows[0]!.id;

describe('the principal of an exchange', () => {
  it('is the caller the token names, in the handler context of every round', async () => {
    const first = await leg('alice', 'whoami');
    expect(first.body.result?.resultType).toBe('input_required');
    const done = await answer('alice', 'whoami', first, 'go');
    expect(JSON.parse((done.body.result?.content as Array<{ text: string }>)[0]!.text)).toEqual({
      id: stack.principal('alice'),
      // A client-credentials token (its sub is its client): a service acting as itself.
      kind: 'service',
      subject: 'alice',
      clientId: 'alice',
      issuer: stack.as.issuer,
      scopes: ['mcp'],
    });
  });

  it('is recorded on the exchange and as its McpPrincipal search attribute', async () => {
    const id = await exchangeIdOf(stack.principal('alice'), 'whoami');
    const description = await stack.service.temporal.workflow.getHandle(workflowIdFor(id)).describe();
    expect(description.typedSearchAttributes.get(MCP_PRINCIPAL)).toBe(stack.principal('alice'));
  });

  it('filters the admin list, and npm run exchanges -- list --principal', async () => {
    await answer('bob', 'whoami', await leg('bob', 'whoami'), 'go');
    const listed = await admin(
      stack.service.url,
      `/exchanges?target=whoami&principal=${encodeURIComponent(stack.principal('bob'))}`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.exchanges.length).toBeGreaterThan(0);
    expect(new Set(listed.body.exchanges.map((e: { principal: string }) => e.principal))).toEqual(
      new Set([stack.principal('bob')]),
    );

    const out: string[] = [];
    const io = { out: (line: string) => out.push(line), err: (line: string) => out.push(line), env: {} };
    const base = stack.service.url.replace(/\/mcp$/, '');
    const args = ['list', '--principal', stack.principal('alice'), '--target', 'whoami', '--json'];
    expect(await exchangesCli([...args, '--url', base, '--token', TEST_ADMIN_TOKEN], io)).toBe(0);
    const rows = (JSON.parse(out.join('\n')) as { exchanges: Array<{ principal: string }> }).exchanges;
    expect(rows.map((row) => row.principal)).toEqual(rows.map(() => stack.principal('alice')));
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe("principal A's requestState under principal B", () => {
  it('is refused exactly like a tampered one (-32602), and still works for A', async () => {
    const first = await leg('alice', 'greet');
    const state = first.body.result!.requestState as string;
    const stolen = await leg('bob', 'greet', {
      requestState: state,
      inputResponses: { name: accept({ name: 'Mallory' }) },
    });
    const tampered = await leg('alice', 'greet', {
      requestState: `${state.slice(0, -4)}AAAA`,
      inputResponses: { name: accept({ name: 'Mallory' }) },
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toEqual({ ...tampered.body.error });
    expect(stolen.body.error?.code).toBe(-32602);

    const done = await answer('alice', 'greet', first, 'name', { name: 'Ada' });
    expect(done.body.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
  });
});

describe("principal A's legacy session under principal B", () => {
  it('is not found (404) on Streamable HTTP, for requests, responses, its stream and its end', async () => {
    const session = await LegacySession.open(stack.service.url, { headers: { authorization: await bearer('alice') } });
    try {
      const asBob = { headers: { authorization: await bearer('bob') } };
      expect((await session.call('tools/list')).result?.tools).toBeDefined();
      expect((await session.post({ jsonrpc: '2.0', id: 7, method: 'tools/list' }, asBob)).status).toBe(404);
      expect(await session.respond('mcp-srq:x:1:name', { action: 'cancel' }, asBob)).toBe(404);
      const stream = await session.listen(asBob);
      expect(stream.status).toBe(404);
      stream.close();
      expect(await session.terminate(asBob)).toBe(404);
      // Still alice's, and still open.
      expect((await session.call('tools/list')).result?.tools).toBeDefined();
    } finally {
      await session.close();
    }
  });

  it('is not found (404) on the 2024-11-05 transport', async () => {
    const sse = await openSseSession(stack.service.url, { authorization: await bearer('alice') });
    try {
      const initialize = {
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      };
      expect((await sse.post(initialize, { authorization: await bearer('bob') })).status).toBe(404);
      expect((await sse.post(initialize)).status).toBe(202);
      await sse.stream.until((m) => isResponseTo(m, 'init'), 'the response to initialize');
    } finally {
      sse.close();
    }
  });
});

describe('the official 1.x client with its OAuth support (legacy era)', () => {
  it.each(['streamable-http', 'sse'] as const)('completes an exchange over %s', async (kind) => {
    // The 1.x client asks for the scope it is configured with (2.x reads the challenge's `scope`).
    const authProvider = new LegacyClientCredentialsProvider({
      clientId: CLIENTS.carol.client_id,
      clientSecret: CLIENTS.carol.client_secret,
      expectedIssuer: stack.as.issuer,
      scope: 'mcp',
    });
    const client = new LegacyClient({ name: 'oauth-tests', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
    const base = stack.service.url.replace(/\/mcp$/, '');
    const transport =
      kind === 'sse'
        ? new SSEClientTransport(new URL(`${base}/sse`), { authProvider })
        : new LegacyStreamableHTTPClientTransport(new URL(stack.service.url), { authProvider });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'greet', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      const id = await exchangeIdOf(stack.principal('carol'), 'greet');
      const { rows } = await stack.service.pool.query('SELECT era FROM exchanges WHERE id = $1', [id]);
      expect(rows[0].era).toBe('legacy');
    } finally {
      await client.close();
    }
  });
});

describe('per-principal budgets', () => {
  it('refuse a principal its next running exchange past MAX_RUNNING_EXCHANGES_PER_PRINCIPAL (429), not another principal', async () => {
    // Each call its own (a key apiece): identical calls without one would join the first.
    const call = (i: number) => leg('olga', 'greet', { idempotencyKey: `budget-${i}` });
    for (let i = 0; i < 3; i += 1) expect((await call(i)).body.result?.resultType).toBe('input_required');
    const refused = await call(3);
    expect(refused.status).toBe(429);
    expect(refused.headers?.get('retry-after')).toBe('5');
    expect(refused.body.error).toMatchObject({ code: -32000, message: expect.stringContaining('this principal') });
    expect((await leg('bob', 'greet')).body.result?.resultType).toBe('input_required');
  });

  it('refuse a principal its next session past MAX_OPEN_SESSIONS_PER_PRINCIPAL (429), not another principal', async () => {
    const authorization = await bearer('olga');
    const sessions = [];
    for (let i = 0; i < 4; i += 1)
      sessions.push(await LegacySession.open(stack.service.url, { headers: { authorization } }));
    try {
      const initialize = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      };
      const refused = await postMessage(stack.service.url, initialize, { authorization });
      expect(refused.status).toBe(429);
      expect(refused.response.headers.get('retry-after')).toBe('5');
      refused.close();
      const other = await LegacySession.open(stack.service.url, { headers: { authorization: await bearer('bob') } });
      await other.close();
    } finally {
      for (const session of sessions) await session.close();
    }
  });
});
