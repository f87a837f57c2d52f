/**
 * The gateway in front of Mastra: `MCPServer` from `@mastra/mcp` 2.x, 2026-07-28 only, served by
 * its own `startHTTP` (test/support/mastra-upstream.ts). A Mastra tool asks for input by
 * suspending; its server makes that one form elicitation (key `input`, the tool's `resumeSchema`)
 * with its own signed `requestState`. Through the gateway the ask reaches the official 2.x client
 * (2026-07-28) as an ask and the 1.x client (2025-11-25) as a real `elicitation/create` on its
 * stream, and the answer comes back to the suspended tool. Mastra's tools declare output schemas,
 * so a result is structured, as the caller's client checks it.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectModernClient } from '../support/modern-client';
import { startMastraUpstream, type MastraUpstream } from '../support/mastra-upstream';
import { useTestService } from '../support/test-service';

type ToolResult = {
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

let upstream: MastraUpstream;
const env: Record<string, string> = { UPSTREAM_NAME: 'depot', UPSTREAM_TOOL_PREFIX: 'depot_', HANDLERS: 'none' };
beforeAll(async () => {
  upstream = await startMastraUpstream();
  env.UPSTREAM_URL = upstream.url;
});
afterAll(() => upstream?.close());
const service = useTestService(env);

const callsOf = (orderId: string) => upstream.calls.filter((call) => call.arguments?.orderId === orderId);

describe("the gateway in front of Mastra's MCPServer", () => {
  it('lists its tools, prefixed', async () => {
    const client = await connectModernClient(service.url, {});
    const { tools } = await client.listTools();
    const listed = tools.filter((tool) => tool.name.startsWith('depot_'));
    expect(listed.map((tool) => tool.name).sort()).toEqual(['depot_add', 'depot_book_delivery']);
    expect(listed.find((tool) => tool.name === 'depot_add')?.description).toBe('Adds two numbers.');
    await client.close();
  });

  it('serves a plain call to a 2026-07-28 client and to a 2025-11-25 client', async () => {
    const modern = await connectModernClient(service.url, {});
    const sum = (await modern.callTool({ name: 'depot_add', arguments: { a: 2, b: 3 } })) as ToolResult;
    expect(sum.structuredContent).toEqual({ sum: 5 });
    await modern.close();
    const legacy = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: {} });
    await legacy.connect(new LegacyTransport(new URL(service.url)));
    const again = (await legacy.callTool(
      { name: 'depot_add', arguments: { a: 4, b: 5 } },
      CallToolResultSchema,
    )) as ToolResult;
    expect(again.structuredContent).toEqual({ sum: 9 });
    await legacy.close();
  });

  it("carries a suspended tool's ask to a 2026-07-28 client, and the answer back to the tool", async () => {
    const asked: Array<{ message: string; requestedSchema?: unknown }> = [];
    const client = await connectModernClient(service.url, (params) => {
      asked.push(params);
      return { action: 'accept', content: { address: '1 Quay Street' } };
    });
    const result = (await client.callTool({
      name: 'depot_book_delivery',
      arguments: { orderId: 'M-1' },
    })) as ToolResult;
    // The tool ran again with the answer and the payload it suspended with.
    expect(result.structuredContent).toEqual({ orderId: 'M-1', address: '1 Quay Street', phase: 'address' });
    expect(asked).toEqual([
      expect.objectContaining({
        message: 'Where should order M-1 go?',
        requestedSchema: expect.objectContaining({ properties: { address: { type: 'string' } } }),
      }),
    ]);
    const [first, second] = callsOf('M-1');
    expect(callsOf('M-1')).toHaveLength(2);
    expect(first!.requestState).toBeUndefined();
    expect(second!.requestState).toEqual(expect.any(String));
    expect(second!.inputResponses).toEqual({ input: { action: 'accept', content: { address: '1 Quay Street' } } });
    await client.close();
  });

  it("sends a suspended tool's ask to a 2025-11-25 client as a real elicitation/create", async () => {
    const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { address: '2 Mill Lane' } };
    });
    await client.connect(new LegacyTransport(new URL(service.url)));
    const result = (await client.callTool(
      { name: 'depot_book_delivery', arguments: { orderId: 'M-2' } },
      CallToolResultSchema,
    )) as ToolResult;
    expect(result.structuredContent).toEqual({ orderId: 'M-2', address: '2 Mill Lane', phase: 'address' });
    expect(asked).toEqual(['Where should order M-2 go?']);
    await client.close();
  });

  it("gives a declined form to Mastra, which ends the call with the tool's error", async () => {
    const client = await connectModernClient(service.url, () => ({ action: 'decline' }));
    const result = (await client.callTool({
      name: 'depot_book_delivery',
      arguments: { orderId: 'M-3' },
    })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/book_delivery.*declined/);
    expect(callsOf('M-3')).toHaveLength(2);
    await client.close();
  });
});
