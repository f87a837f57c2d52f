/**
 * The gateway in front of a Python upstream: the official `mcp` 2.x SDK's `MCPServer` over
 * Streamable HTTP (test/gateway/python/upstream_server.py), none of it written here but its tools.
 * One tool returns an `InputRequiredResult` itself and reads the answers and its `requestState`;
 * the others ask through the SDK's resolvers (`Elicit`, `Sample`, `ListRoots`). The SDK seals its
 * own `requestState`, bound to the tool and arguments, so a state the gateway did not return byte
 * for byte would be refused there. Each ask reaches the official 2.x client (2026-07-28) as an ask,
 * and the 1.x client (2025-11-25) as a real `elicitation/create`, `sampling/createMessage` or
 * `roots/list` on its stream. Skipped, saying why, when python3 cannot import the SDK (CI installs
 * it: .ci/run).
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { connectModernClient } from '../support/modern-client';
import { pythonUpstreamMissing, startPythonUpstream, type PythonUpstream } from '../support/python-upstream';
import { useTestService } from '../support/test-service';
import { exchangeStatus } from '../support/exchange-rows';

type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };
const textOf = (result: unknown) => (result as ToolResult).content[0]?.text;
const UPSTREAM_TOKEN = 'gateway-own-credential';
const ROOT = { uri: 'file:///srv/warehouse', name: 'warehouse' };
const sampled = (text: string) => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'test-model',
});

const missing = pythonUpstreamMissing();
if (missing) console.warn(`python-upstream.int.test.ts skipped: ${missing}`);
const describeWithPython = missing ? describe.skip : describe;

describeWithPython('the gateway in front of a Python server on the official mcp 2.x SDK', () => {
  let upstream: PythonUpstream;
  const env: Record<string, string> = {
    UPSTREAM_NAME: 'warehouse',
    UPSTREAM_TOOL_PREFIX: 'wh_',
    UPSTREAM_BEARER_TOKEN: UPSTREAM_TOKEN,
    HANDLERS: 'none',
  };
  beforeAll(async () => {
    upstream = await startPythonUpstream();
    env.UPSTREAM_URL = upstream.url;
  });
  afterAll(() => upstream?.close());
  const service = useTestService(env);
  const callsOf = (name: string, key: string, value: unknown) =>
    upstream.calls.filter((call) => call.name === name && call.arguments?.[key] === value);

  /** The 1.x client, declaring what it answers, with a handler for each. */
  async function legacyClient(asked: string[]): Promise<LegacyClient> {
    const client = new LegacyClient(
      { name: 'desk', version: '1.0.0' },
      { capabilities: { elicitation: {}, sampling: {}, roots: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(`elicitation/create: ${request.params.message}`);
      return request.params.message.startsWith('Place order')
        ? { action: 'accept', content: { name: 'Grace' } }
        : { action: 'accept', content: { name: 'Grace', time: '19:00' } };
    });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      const [message] = request.params.messages;
      asked.push(`sampling/createMessage: ${(message?.content as { text: string }).text}`);
      return sampled('short');
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked.push('roots/list');
      return { roots: [ROOT] };
    });
    await client.connect(new LegacyTransport(new URL(service.url)));
    return client;
  }

  it('lists its tools, prefixed, with their descriptions', async () => {
    const client = await connectModernClient(service.url, {});
    const { tools } = await client.listTools();
    const listed = tools.map((tool) => tool.name).filter((name) => name.startsWith('wh_'));
    expect(listed.sort()).toEqual(['wh_add', 'wh_book_table', 'wh_confirm_order', 'wh_summarize', 'wh_workspace']);
    expect(tools.find((tool) => tool.name === 'wh_add')?.description).toBe('Adds two numbers.');
    await client.close();
  });

  it('serves a plain call to a 2026-07-28 client and to a 2025-11-25 client', async () => {
    const modern = await connectModernClient(service.url, {});
    expect(textOf(await modern.callTool({ name: 'wh_add', arguments: { a: 2, b: 3 } }))).toBe('5');
    await modern.close();
    const legacy = await legacyClient([]);
    expect(textOf(await legacy.callTool({ name: 'wh_add', arguments: { a: 4, b: 5 } }, CallToolResultSchema))).toBe(
      '9',
    );
    await legacy.close();
  });

  it('carries its own InputRequiredResult to a 2026-07-28 client, and returns its sealed requestState as it sent it', async () => {
    const asked: unknown[] = [];
    const client = await connectModernClient(service.url, (params) => {
      asked.push(params);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    const result = await client.callTool({ name: 'wh_confirm_order', arguments: { order: 'P-1' } });
    // The tool read its own plaintext state: the SDK unsealed what the gateway returned.
    expect(textOf(result)).toBe('placed P-1 for Ada (order:P-1)');
    expect(asked).toEqual([
      expect.objectContaining({
        message: 'Place order P-1?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      }),
    ]);
    const calls = callsOf('confirm_order', 'order', 'P-1');
    expect(calls).toHaveLength(2);
    const [first, second] = calls;
    expect(first!.requestState).toBeUndefined();
    expect(second!.requestState).toEqual(expect.any(String));
    expect(second!.requestState).not.toContain('order:P-1'); // sealed by the SDK, not ours to read
    expect(second!.inputResponses).toEqual({ confirm: { action: 'accept', content: { name: 'Ada' } } });
    const key = first!._meta?.idempotencyKey as string;
    expect(key).toMatch(/^[0-9a-f-]{36}\/1$/);
    expect(second!._meta?.idempotencyKey).toBe(key.replace(/\/1$/, '/2'));
    expect(first!._meta?.['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: {} });
    expect(first!.authorization).toBe(`Bearer ${UPSTREAM_TOKEN}`);
    expect(await exchangeStatus(service.pool, key.split('/')[0]!)).toBe('completed');
    await client.close();
  });

  it("carries the SDK's resolver asks (a form, a sampling request, the roots) to a 2026-07-28 client", async () => {
    const asked: string[] = [];
    const client = await connectModernClient(service.url, {
      elicit: (params) => {
        asked.push(`elicit: ${params.message}`);
        expect(params.requestedSchema).toMatchObject({ properties: { name: {}, time: {} } });
        return { action: 'accept', content: { name: 'Ada', time: '20:00' } };
      },
      sample: (params) => {
        const [message] = params.messages as Array<{ content: { text: string } }>;
        asked.push(`sample: ${message!.content.text}`);
        return sampled('brief');
      },
      roots: [ROOT],
    });
    const booked = await client.callTool({ name: 'wh_book_table', arguments: { guests: 4 } });
    expect(textOf(booked)).toBe('table for 4 at 20:00, name Ada');
    const summary = await client.callTool({ name: 'wh_summarize', arguments: { text: 'a long text' } });
    expect(textOf(summary)).toBe('summary by test-model: brief');
    const workspace = await client.callTool({ name: 'wh_workspace', arguments: {} });
    expect(textOf(workspace)).toBe(`roots: ${ROOT.uri}`);
    expect(asked).toEqual(['elicit: Book a table for 4: whose name, and when?', 'sample: Summarize: a long text']);
    // Each ask was a round of its own: the call, then the call again with the answer.
    expect(callsOf('book_table', 'guests', 4)).toHaveLength(2);
    const [, sampledRound] = callsOf('summarize', 'text', 'a long text');
    expect(Object.values(sampledRound!.inputResponses ?? {})).toEqual([sampled('brief')]);
    await client.close();
  });

  it('sends each of its asks to a 2025-11-25 client as the real server-to-client request', async () => {
    const asked: string[] = [];
    const client = await legacyClient(asked);
    const call = async (name: string, args: Record<string, unknown>) =>
      textOf(await client.callTool({ name, arguments: args }, CallToolResultSchema));
    expect(await call('wh_confirm_order', { order: 'P-2' })).toBe('placed P-2 for Grace (order:P-2)');
    expect(await call('wh_book_table', { guests: 2 })).toBe('table for 2 at 19:00, name Grace');
    expect(await call('wh_summarize', { text: 'minutes' })).toBe('summary by test-model: short');
    expect(await call('wh_workspace', {})).toBe(`roots: ${ROOT.uri}`);
    expect(asked).toEqual([
      'elicitation/create: Place order P-2?',
      'elicitation/create: Book a table for 2: whose name, and when?',
      'sampling/createMessage: Summarize: minutes',
      'roots/list',
    ]);
    // The upstream saw the capabilities the 1.x client declared at initialize (its SDK sends
    // `elicitation: {}` as `{ form: {} }`), as a 2026-07-28 request carries them.
    expect(callsOf('book_table', 'guests', 2)[0]!._meta?.['io.modelcontextprotocol/clientCapabilities']).toEqual({
      elicitation: { form: {} },
      sampling: {},
      roots: {},
    });
    await client.close();
  });

  it("gives a declined form to the upstream, whose resolver makes it the call's tool error", async () => {
    const client = await connectModernClient(service.url, () => ({ action: 'decline' }));
    const result = (await client.callTool({ name: 'wh_book_table', arguments: { guests: 6 } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/elicitation was decline/);
    const [, answered] = callsOf('book_table', 'guests', 6);
    expect(Object.values(answered!.inputResponses ?? {})).toEqual([{ action: 'decline' }]);
    await client.close();
  });

  it('passes on the upstream refusing a resolver ask the client did not declare (-32021)', async () => {
    const client = await connectModernClient(service.url, {});
    const refused = await client.callTool({ name: 'wh_summarize', arguments: { text: 'x' } }).then(
      () => undefined,
      (error: { code?: number; message?: string }) => error,
    );
    expect(refused?.code).toBe(-32021);
    expect(refused?.message).toMatch(/upstream warehouse: .*sampling/);
    await client.close();
  });
});
