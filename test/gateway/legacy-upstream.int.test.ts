/**
 * A handshake-era upstream (the official TypeScript SDK 1.x server, 2025-11-25 at most) behind the
 * gateway: the gateway's client negotiates down to it, so its plain calls are served, as durable
 * exchanges, to clients of both eras. An ask it makes the handshake era's way (a server-to-client
 * `elicitation/create` on the call's connection) cannot be carried across rounds: the gateway
 * declares no capability to it, so the server's own SDK refuses its ask, and the caller gets that
 * refusal as the server's answer.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectModernClient } from '../support/modern-client';
import { startLegacySdkUpstream, type LegacySdkUpstream } from '../support/legacy-sdk-upstream';
import { useTestService } from '../support/test-service';

type ToolResult = { content: Array<{ type: string; text: string }>; isError?: boolean };
const textOf = (result: unknown) => (result as ToolResult).content[0]?.text ?? '';

let upstream: LegacySdkUpstream;
const env: Record<string, string> = { HANDLERS: 'none', UPSTREAM_NAME: 'ledger' };
beforeAll(async () => {
  upstream = await startLegacySdkUpstream();
  env.UPSTREAM_URL = upstream.url;
});
afterAll(() => upstream?.close());
const service = useTestService(env);

describe('a handshake-era upstream', () => {
  it('lists its tools and serves its plain calls to a 2026-07-28 client and a 2025-11-25 client', async () => {
    const modern = await connectModernClient(service.url, {});
    expect((await modern.listTools()).tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['balance', 'close_account']),
    );
    expect(textOf(await modern.callTool({ name: 'balance', arguments: { account: 'A-1' } }))).toBe('A-1: 42');
    await modern.close();

    const legacy = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: {} });
    await legacy.connect(new LegacyTransport(new URL(service.url)));
    const result = await legacy.callTool({ name: 'balance', arguments: { account: 'A-2' } }, CallToolResultSchema);
    expect(textOf(result)).toBe('A-2: 42');
    await legacy.close();
  });

  it("gives the caller the server's own refusal of an ask it makes as a server-to-client request", async () => {
    // The caller can answer forms; the gateway's connection to the upstream cannot carry one.
    const modern = await connectModernClient(service.url, async () => ({ action: 'accept', content: {} }));
    const result = (await modern.callTool({ name: 'close_account', arguments: { account: 'A-3' } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/elicitation/i);
    await modern.close();
  });
});
