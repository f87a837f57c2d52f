/**
 * A handshake-era upstream for the gateway's tests, none of it written here but its tools: the
 * official TypeScript SDK 1.x server (`McpServer` over `StreamableHTTPServerTransport`, stateless, a
 * server per request), which speaks 2025-11-25 at most and asks for input only with a
 * server-to-client request (`elicitInput`), as servers of that era do.
 */
import http from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { readBody } from '../../bench/baselines/http-child';

export interface LegacySdkUpstream {
  url: string;
  close(): Promise<void>;
}

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

export async function startLegacySdkUpstream(): Promise<LegacySdkUpstream> {
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const mcp = legacyServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close().then(() => mcp.close()));
      await mcp.connect(transport);
      await transport.handleRequest(req, res, body.length > 0 ? JSON.parse(body.toString('utf8')) : undefined);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
