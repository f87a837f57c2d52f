/**
 * An upstream MCP server for the gateway's tests, none of it written here but its tools: the
 * official TypeScript SDK 2.x server (`createMcpHandler`, a fresh `McpServer` per request, 2026-07-28
 * only) behind node:http, its multi-round tools answering with `inputRequired(...)` as the SDK's own
 * users write them. It records each `tools/call` it is sent, as sent, for the tests to read.
 */
import http from 'node:http';
import { createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { readBody } from '../../bench/baselines/http-child';

export interface ReceivedCall {
  name: string;
  arguments?: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  _meta?: Record<string, unknown>;
  authorization?: string;
}

export interface SdkUpstream {
  url: string;
  calls: ReceivedCall[];
  close(): Promise<void>;
}

const accepted = (answer: unknown) => {
  const { action, content } = (answer ?? {}) as { action?: string; content?: Record<string, unknown> };
  return action === 'accept' ? content : undefined;
};

function upstreamServer(): McpServer {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  server.registerTool(
    'add',
    { description: 'Adds two numbers.', inputSchema: z.object({ a: z.number(), b: z.number() }) },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  server.registerTool(
    'confirm_order',
    { description: 'Places an order once the user confirms it.', inputSchema: z.object({ order: z.string() }) },
    ({ order }, ctx) => {
      const confirmed = ctx.mcpReq.inputResponses?.confirm;
      if (confirmed === undefined)
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Place order ${order}?`,
              requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
            }),
          },
          requestState: `order:${order}`,
        });
      const content = accepted(confirmed);
      const state = ctx.mcpReq.requestState();
      return {
        content: [
          {
            type: 'text',
            text: content ? `placed ${order} for ${String(content.name)} (${String(state)})` : 'declined',
          },
        ],
      };
    },
  );
  // A tool with an output schema that asks: its ask has no structured content, its result has.
  server.registerTool(
    'reserve',
    {
      description: 'Reserves seats once the user says how many.',
      inputSchema: z.object({ show: z.string() }),
      outputSchema: z.object({ show: z.string(), seats: z.number() }),
    },
    ({ show }, ctx) => {
      const answer = accepted(ctx.mcpReq.inputResponses?.seats);
      if (answer === undefined)
        return inputRequired({
          inputRequests: {
            seats: inputRequired.elicit({
              message: `How many seats for ${show}?`,
              requestedSchema: { type: 'object', properties: { seats: { type: 'number' } }, required: ['seats'] },
            }),
          },
        });
      const reserved = { show, seats: Number(answer.seats) };
      return { content: [{ type: 'text', text: JSON.stringify(reserved) }], structuredContent: reserved };
    },
  );
  return server;
}

/** Starts the upstream on a free loopback port. */
export async function startSdkUpstream(): Promise<SdkUpstream> {
  const handler = createMcpHandler(upstreamServer, { legacy: 'reject' });
  const calls: ReceivedCall[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const message = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : undefined;
      if (message?.method === 'tools/call')
        calls.push({
          ...(message.params as ReceivedCall),
          ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
        });
      const headers = new Headers();
      for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const response = await handler.fetch(
        new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
          method: req.method,
          headers,
          body: hasBody ? body : undefined,
        }),
      );
      res.writeHead(response.status, [...response.headers]);
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    async close() {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await handler.close();
    },
  };
}
