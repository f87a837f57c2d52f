/**
 * An upstream MCP server for the gateway's tests, none of it written here but its tools: the
 * official TypeScript SDK 2.x server (`createMcpHandler`, a fresh `McpServer` per request, 2026-07-28
 * only) behind node:http, its multi-round tools answering with `inputRequired(...)` as the SDK's own
 * users write them. It records each `tools/call` it is sent, as sent, and each one it ran
 * (`applied`), for the tests to read; a test can hold the next call of a tool before it runs or
 * after it ran, before its response goes out (`hold`), to stop its caller inside that window.
 * A test can change its tools while it runs (`removeTool`, `addTool`), as a server redeployed with
 * other tools does: from the next request on, a removed tool is neither listed nor called. Started
 * with `announceToolChanges`, it also announces each change, `notifications/tools/list_changed`
 * on every open `subscriptions/listen` stream (the SDK's own listen router), as a server that knows
 * its tools changed does. It counts the `tools/list` requests it was sent and its open listen
 * streams, and can hold every `tools/list` (`holdListings`): a server that takes the connection and
 * answers everything but its listing.
 */
import http from 'node:http';
import { Readable } from 'node:stream';
import { createMcpHandler, inputRequired, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { fetchRequestOf, serveOnLoopback } from './loopback-mcp-server';

export interface ReceivedCall {
  name: string;
  arguments?: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  _meta?: Record<string, unknown>;
  authorization?: string;
}

/** The next call of a tool, held: `arrived` once it is, `release` lets it go on. */
export interface HeldCall {
  arrived: Promise<ReceivedCall>;
  release(): void;
}

/** The `tools/call` a request carries, as a test reads it (with the `Authorization` it came with), if it carries one. */
export function toolsCallOf(
  req: http.IncomingMessage,
  message: Record<string, unknown> | undefined,
): ReceivedCall | undefined {
  if (message?.method !== 'tools/call') return undefined;
  return {
    ...(message.params as ReceivedCall),
    ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
  };
}

export interface SdkUpstream {
  url: string;
  calls: ReceivedCall[];
  /** The calls the server ran (a call held `before` and never released did not run). */
  applied: ReceivedCall[];
  /** Holds the next call of `tool`: `before` it runs, or `after` it ran, before its response is sent. */
  hold(tool: string, when: 'before' | 'after'): HeldCall;
  /** From the next request on, `tool` is not listed, and a call of it gets the SDK's own "not found". */
  removeTool(tool: string): void;
  /** From the next request on, one more tool is served, answering `ok <name>`. */
  addTool(tool: string): void;
  /** Holds every `tools/list` it is sent from now on, until `release`. */
  holdListings(): { release(): void };
  /** How many `tools/list` requests it was sent. */
  listings(): number;
  /** How many `subscriptions/listen` streams are open on it now. */
  openListens(): number;
  close(): Promise<void>;
}

interface Hold {
  tool: string;
  when: 'before' | 'after';
  arrive(call: ReceivedCall): void;
  released: Promise<void>;
}

const accepted = (answer: unknown) => {
  const { action, content } = (answer ?? {}) as { action?: string; content?: Record<string, unknown> };
  return action === 'accept' ? content : undefined;
};

/**
 * What a test makes the server do with one call instead of answering it: write its own HTTP answer
 * (`res`; `requestId` is the JSON-RPC id to answer under), as a broken or hostile server would.
 * Return false to let the server answer.
 */
export type Misbehave = (
  call: ReceivedCall,
  res: http.ServerResponse,
  attempt: number,
  requestId: string | number,
) => boolean;

export interface SdkUpstreamOptions {
  /** More tools, each answering `ok <name>`: names for `misbehave` to act on. */
  extraTools?: string[];
  misbehave?: Misbehave;
  /** Announce `removeTool` and `addTool` to subscribed clients (else they learn of it by listing again). */
  announceToolChanges?: boolean;
  /** Where it listens (a free port when unset): an upstream declared while it was still down. */
  port?: number;
}

/** The server with its tools, those named in `removed` taken out again (each request builds it anew). */
function upstreamServer(extraTools: readonly string[], removed: ReadonlySet<string>): McpServer {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  const register = ((...args: Parameters<McpServer['registerTool']>) => {
    const tool = server.registerTool(...args);
    if (removed.has(args[0])) tool.remove();
    return tool;
  }) as McpServer['registerTool'];
  for (const name of extraTools)
    register(name, { description: `Answers ok ${name}.`, inputSchema: z.object({}) }, () => ({
      content: [{ type: 'text', text: `ok ${name}` }],
    }));
  register(
    'add',
    { description: 'Adds two numbers.', inputSchema: z.object({ a: z.number(), b: z.number() }) },
    ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  register(
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
  register(
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
export async function startSdkUpstream(options: SdkUpstreamOptions = {}): Promise<SdkUpstream> {
  const extraTools = [...(options.extraTools ?? [])];
  const removed = new Set<string>();
  const handler = createMcpHandler(() => upstreamServer(extraTools, removed), { legacy: 'reject' });
  const attempts = new Map<string, number>();
  const calls: ReceivedCall[] = [];
  const applied: ReceivedCall[] = [];
  const holds: Hold[] = [];
  let listingHold: Promise<void> = Promise.resolve();
  let listings = 0;
  let openListens = 0;
  let closed = false;
  const served = await serveOnLoopback(async (req, body, res) => {
    const message = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : undefined;
    const call = toolsCallOf(req, message);
    if (message?.method === 'tools/list') {
      listings += 1;
      await listingHold;
    }
    let hold: Hold | undefined;
    if (call) {
      calls.push(call);
      const at = holds.findIndex((h) => h.tool === call!.name);
      if (at >= 0) [hold] = holds.splice(at, 1);
    }
    if (call && options.misbehave) {
      const attempt = (attempts.get(call.name) ?? 0) + 1;
      attempts.set(call.name, attempt);
      if (options.misbehave(call, res, attempt, message!.id as string | number)) return;
    }
    if (hold?.when === 'before') {
      hold.arrive(call!);
      await hold.released;
    }
    if (call) applied.push(call);
    const response = await handler.fetch(fetchRequestOf(req, body));
    if (hold?.when !== 'after' && response.body) {
      // Streamed as it comes: a subscriptions/listen response stays open for as long as its client listens.
      res.writeHead(response.status, [...response.headers]);
      res.flushHeaders();
      if (message?.method === 'subscriptions/listen') {
        openListens += 1;
        res.on('close', () => (openListens -= 1));
      }
      const reading = Readable.fromWeb(response.body as never);
      res.on('close', () => reading.destroy());
      reading.pipe(res);
      return;
    }
    const answer = Buffer.from(await response.arrayBuffer());
    if (hold?.when === 'after') {
      hold.arrive(call!);
      await hold.released;
    }
    res.writeHead(response.status, [...response.headers]);
    res.end(answer);
  }, options.port);
  return {
    url: served.url,
    calls,
    applied,
    hold(tool, when) {
      let arrive: (call: ReceivedCall) => void = () => undefined;
      let release: () => void = () => undefined;
      const arrived = new Promise<ReceivedCall>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.push({ tool, when, arrive, released });
      return { arrived, release };
    },
    removeTool(tool) {
      removed.add(tool);
      if (options.announceToolChanges) handler.notify.toolsChanged();
    },
    addTool(tool) {
      removed.delete(tool);
      if (!extraTools.includes(tool)) extraTools.push(tool);
      if (options.announceToolChanges) handler.notify.toolsChanged();
    },
    holdListings() {
      let release: () => void = () => undefined;
      listingHold = new Promise<void>((resolve) => (release = resolve));
      return { release };
    },
    listings: () => listings,
    openListens: () => openListens,
    async close() {
      if (closed) return;
      closed = true;
      await served.close();
      await handler.close();
    },
  };
}
