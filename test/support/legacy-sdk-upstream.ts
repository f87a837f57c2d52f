/**
 * A handshake-era upstream for the gateway's tests, none of it written here but its tools: the
 * official TypeScript SDK 1.x server (`McpServer` over `StreamableHTTPServerTransport`, stateless, a
 * server per request), which speaks 2025-11-25 at most and asks for input only with a
 * server-to-client request (`elicitInput`), as servers of that era do.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { serveOnLoopback, type LoopbackMcpServer } from './loopback-mcp-server';

export type LegacySdkUpstream = LoopbackMcpServer;

function legacyServer(): McpServer {
  const server = new McpServer({ name: 'ledger', version: '1.0.0' });
  server.registerTool(
    'balance',
    { description: 'The balance of an account.', inputSchema: { account: z.string() } },
    ({ account }) => ({ content: [{ type: 'text', text: `${account}: 42` }] }),
  );
  server.registerTool(
    'close_account',
    { description: 'Closes an account once its owner confirms.', inputSchema: { account: z.string() } },
    async ({ account }) => {
      // The handshake era's way to ask: a request to the client on the call's own connection.
      const answer = await server.server.elicitInput({
        message: `Close ${account}?`,
        requestedSchema: { type: 'object', properties: { sure: { type: 'boolean' } } },
      });
      return { content: [{ type: 'text', text: `closed ${account}: ${answer.action}` }] };
    },
  );
  return server;
}

export function startLegacySdkUpstream(): Promise<LegacySdkUpstream> {
  return serveOnLoopback(async (req, body, res) => {
    const mcp = legacyServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close().then(() => mcp.close()));
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined);
  });
}
