/**
 * Baseline: the official TypeScript SDK 2.4's own server serving the bench's three tools over
 * 2026-07-28 HTTP, in memory (no durability): `createMcpHandler` with a per-request `McpServer`,
 * its web-standard entry behind node:http. A bench child process; `PORT` picks the port.
 */
import { createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { acceptedString, benchStep, BENCH_TOOLS, type BenchTool } from './tools';
import { fetchRequestOf, serveBaseline } from './http-child';

function tool(name: BenchTool) {
  return (ctx: { mcpReq: { inputResponses?: Record<string, unknown>; requestState: () => unknown } }) => {
    // The name travels in requestState after it was answered (as the service's handler keeps it).
    const state = ctx.mcpReq.requestState();
    const known = {
      name: typeof state === 'string' ? state : acceptedString(ctx.mcpReq.inputResponses, 'name'),
      color: typeof state === 'string' ? acceptedString(ctx.mcpReq.inputResponses, 'color') : undefined,
    };
    const step = benchStep(name, known);
    if (step.kind === 'result') return step.result;
    return inputRequired({
      inputRequests: { [step.key]: step.request },
      ...(step.key === 'color' ? { requestState: known.name } : {}),
    });
  };
}

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'bench-sdk-baseline', version: '1.0.0' });
    for (const name of BENCH_TOOLS) {
      server.registerTool(name, { description: `bench tool ${name}`, inputSchema: z.object({}) }, (_args, ctx) =>
        tool(name)(ctx),
      );
    }
    return server;
  },
  { legacy: 'reject' },
);

serveBaseline(
  'sdk-baseline',
  async (req, body, res) => {
    const response = await handler.fetch(fetchRequestOf(req, body));
    res.writeHead(response.status, [...response.headers]);
    res.end(Buffer.from(await response.arrayBuffer()));
  },
  () => handler.close(),
);
