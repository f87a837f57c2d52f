/**
 * A handshake-era upstream for the gateway's tests, none of it written here but its tools: the
 * official TypeScript SDK 1.x server (`McpServer` over `StreamableHTTPServerTransport`), which
 * speaks 2025-11-25 at most and asks for input only with a server-to-client request
 * (`elicitInput`), as servers of that era do. `startLegacySdkUpstream` runs it stateless (a server
 * per request); `startLegacySessionUpstream` runs it with sessions (a server and transport per
 * session, with a session id generator), so each session has its GET stream, on which the SDK
 * sends `notifications/tools/list_changed` when a tool is registered on a connected server
 * (`addTool`).
 */
import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { serveOnLoopback, type LoopbackMcpServer } from './loopback-mcp-server';

export type LegacySdkUpstream = LoopbackMcpServer;

/** One more tool, answering `ok <name>`. */
function registerExtraTool(server: McpServer, name: string): void {
  server.registerTool(name, { description: `Answers ok ${name}.`, inputSchema: {} }, () => ({
    content: [{ type: 'text', text: `ok ${name}` }],
  }));
}

function legacyServer(extraTools: readonly string[] = []): McpServer {
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
  for (const name of extraTools) registerExtraTool(server, name);
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

export interface LegacySessionUpstream extends LoopbackMcpServer {
  /**
   * Serves one more tool, answering `ok <name>`, in every session open and to come: registered on
   * each session's connected server, which announces it on that session's GET stream.
   */
  addTool(name: string): void;
  /** How many `tools/list` requests it was sent. */
  listings(): number;
  /** How many sessions hold their GET stream open now. */
  openStreams(): number;
}

/** `port`: where it listens (a free port when unset), to start it again where its clients know it. */
export async function startLegacySessionUpstream(port?: number): Promise<LegacySessionUpstream> {
  const sessions = new Map<string, { server: McpServer; transport: StreamableHTTPServerTransport }>();
  const extraTools: string[] = [];
  let listings = 0;
  let openStreams = 0;
  const served = await serveOnLoopback(async (req, body, res) => {
    const message = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : undefined;
    const sessionId = req.headers['mcp-session-id'];
    let session = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!session) {
      if (sessionId !== undefined || !isInitializeRequest(message)) {
        // As the SDK's own stateful example answers a request outside any session.
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
            id: null,
          }),
        );
        return;
      }
      const server = legacyServer(extraTools);
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { server, transport }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      session = { server, transport };
    }
    if (message?.method === 'tools/list') listings += 1;
    if (req.method === 'GET') {
      openStreams += 1;
      res.on('close', () => (openStreams -= 1));
    }
    await session.transport.handleRequest(req, res, message);
  }, port);
  return {
    url: served.url,
    addTool(name) {
      extraTools.push(name);
      for (const { server } of sessions.values()) registerExtraTool(server, name);
    },
    listings: () => listings,
    openStreams: () => openStreams,
    async close() {
      await served.close();
      await Promise.all([...sessions.values()].map(({ server }) => server.close()));
    },
  };
}
