/**
 * An upstream MCP server for the gateway's tests on Mastra: `MCPServer` from `@mastra/mcp` 2.x
 * (2026-07-28 only), served by its own `startHTTP` behind node:http, with tools made by Mastra's
 * `createTool` as its users write them. A tool asks for input the one way Mastra's server lets it
 * on 2026-07-28: it calls `context.suspend(payload)`, and the server answers `input_required` with
 * one form elicitation, keyed `input`, whose schema is the tool's `resumeSchema` and whose message
 * is the payload's `message`; the payload rides Mastra's own signed `requestState`, and the tool
 * runs again with the answer in `context.resumeData` and its payload in `context.suspendPayload`.
 * (Mastra's server asks nothing else: no sampling, no roots.) Each `tools/call` it is sent is
 * recorded, as sent.
 */
import { createTool } from '@mastra/core/tools';
import { MCPServer } from '@mastra/mcp';
import { z } from 'zod';
import { serveOnLoopback } from './loopback-mcp-server';
import { toolsCallOf, type ReceivedCall } from './sdk-upstream';

export interface MastraUpstream {
  url: string;
  calls: ReceivedCall[];
  close(): Promise<void>;
}

const add = createTool({
  id: 'add',
  description: 'Adds two numbers.',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  outputSchema: z.object({ sum: z.number() }),
  execute: async ({ a, b }) => ({ sum: a + b }),
});

const bookDelivery = createTool({
  id: 'book_delivery',
  description: 'Books the delivery of an order, asking where to.',
  inputSchema: z.object({ orderId: z.string() }),
  outputSchema: z.object({ orderId: z.string(), address: z.string(), phase: z.string() }),
  suspendSchema: z.object({ phase: z.literal('address'), message: z.string() }),
  resumeSchema: z.object({ address: z.string() }),
  execute: async ({ orderId }, context) => {
    if (!context.resumeData) {
      await context.suspend?.({ phase: 'address', message: `Where should order ${orderId} go?` });
      return undefined as never;
    }
    return { orderId, address: context.resumeData.address, phase: context.suspendPayload?.phase ?? 'none' };
  },
});

/** Starts the upstream on a free loopback port. */
export async function startMastraUpstream(): Promise<MastraUpstream> {
  const mcp = new MCPServer({
    id: 'depot',
    name: 'depot',
    version: '1.0.0',
    tools: { add, book_delivery: bookDelivery },
  });
  const calls: ReceivedCall[] = [];
  const served = await serveOnLoopback(async (req, body, res) => {
    const message = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : undefined;
    const call = toolsCallOf(req, message);
    if (call) calls.push(call);
    // The body is read here: Mastra takes it parsed, as an express body parser leaves it.
    Object.assign(req, { body: message });
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
    await mcp.startHTTP({ url, httpPath: '/mcp', req, res });
  });
  let closed = false;
  return {
    url: served.url,
    calls,
    async close() {
      if (closed) return;
      closed = true;
      await served.close();
      await mcp.close();
    },
  };
}
