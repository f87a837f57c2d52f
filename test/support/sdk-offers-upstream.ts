/**
 * An upstream MCP server that offers prompts and resources, for the gateway's tests, none of it
 * written here but what it serves: the official TypeScript SDK 2.x server (`createMcpHandler`, a
 * fresh `McpServer` per request, 2026-07-28 only) behind node:http, asking for input with
 * `inputRequired(...)` from a prompt and from a resource template's read, as the SDK's own users
 * write them.
 *
 * - prompt `review` (argument `topic`, required): a user message about the topic, at once;
 * - prompt `survey`: asks the caller for a mood (a form), then answers with it and its own state;
 * - resource `notes://readme`: its text, at once; `notes://shared`: one a test's local set holds too;
 * - template `notes://items/{id}`: the item's text, at once, but `notes://items/locked` asks for a
 *   code first.
 *
 * It records each `prompts/get` and `resources/read` it is sent, as sent. A test can add a prompt
 * while it runs (`addPrompt`), which it announces (`notifications/prompts/list_changed`) on every
 * open `subscriptions/listen`.
 */
import { Readable } from 'node:stream';
import { createMcpHandler, inputRequired, McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { fetchRequestOf, serveOnLoopback } from './loopback-mcp-server';

export interface ReceivedRequest {
  method: string;
  params: {
    name?: string;
    uri?: string;
    arguments?: Record<string, unknown>;
    inputResponses?: Record<string, unknown>;
    requestState?: string;
    _meta?: Record<string, unknown>;
  };
}

export interface OffersUpstream {
  url: string;
  /** Every `prompts/get` and `resources/read` it was sent. */
  received: ReceivedRequest[];
  /** From the next request on, one more prompt is served (answering `hello from <name>`), and announced. */
  addPrompt(name: string): void;
  close(): Promise<void>;
}

const formAnswer = (answer: unknown) => {
  const { action, content } = (answer ?? {}) as { action?: string; content?: Record<string, unknown> };
  return action === 'accept' ? content : undefined;
};

const text = (uri: string, value: string) => ({ contents: [{ uri, mimeType: 'text/plain', text: value }] });

function offersServer(extraPrompts: readonly string[]): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerPrompt(
    'review',
    { description: 'Asks for a review of a topic.', argsSchema: z.object({ topic: z.string() }) },
    ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Please review ${topic}.` } }] }),
  );
  server.registerPrompt('survey', { description: 'Asks how the user feels first.' }, (ctx) => {
    const mood = formAnswer(ctx.mcpReq.inputResponses?.mood);
    if (mood === undefined)
      return inputRequired({
        inputRequests: {
          mood: inputRequired.elicit({
            message: 'How do you feel?',
            requestedSchema: { type: 'object', properties: { mood: { type: 'string' } }, required: ['mood'] },
          }),
        },
        requestState: 'survey:1',
      });
    const said = `The user feels ${String(mood.mood)} (${String(ctx.mcpReq.requestState())}).`;
    return { messages: [{ role: 'user', content: { type: 'text', text: said } }] };
  });
  for (const name of extraPrompts)
    server.registerPrompt(name, { description: `Says hello from ${name}.` }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: `hello from ${name}` } }],
    }));
  server.registerResource('readme', 'notes://readme', { mimeType: 'text/plain' }, (uri) =>
    text(uri.href, 'Read me first.'),
  );
  server.registerResource('shared', 'notes://shared', { mimeType: 'text/plain' }, (uri) =>
    text(uri.href, 'the upstream copy'),
  );
  server.registerResource(
    'item',
    new ResourceTemplate('notes://items/{id}', { list: undefined }),
    { mimeType: 'text/plain', description: 'One item.' },
    (uri, { id }, ctx) => {
      if (id !== 'locked') return text(uri.href, `item ${String(id)}`);
      const code = formAnswer(ctx.mcpReq.inputResponses?.code);
      if (code === undefined)
        return inputRequired({
          inputRequests: {
            code: inputRequired.elicit({
              message: 'The code to the locked item?',
              requestedSchema: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
            }),
          },
        });
      return text(uri.href, `unlocked with ${String(code.code)}`);
    },
  );
  return server;
}

/** Starts the upstream on a free loopback port. */
export async function startOffersUpstream(): Promise<OffersUpstream> {
  const extraPrompts: string[] = [];
  const handler = createMcpHandler(() => offersServer(extraPrompts), { legacy: 'reject' });
  const received: ReceivedRequest[] = [];
  const served = await serveOnLoopback(async (req, body, res) => {
    const message = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : undefined;
    if (message?.method === 'prompts/get' || message?.method === 'resources/read')
      received.push({ method: message.method, params: message.params as ReceivedRequest['params'] });
    const response = await handler.fetch(fetchRequestOf(req, body));
    res.writeHead(response.status, [...response.headers]);
    res.flushHeaders();
    if (!response.body) return void res.end();
    // Streamed as it comes: a subscriptions/listen response stays open for as long as its client listens.
    const reading = Readable.fromWeb(response.body as never);
    res.on('close', () => reading.destroy());
    reading.pipe(res);
  });
  let closed = false;
  return {
    url: served.url,
    received,
    addPrompt(name) {
      extraPrompts.push(name);
      handler.notify.promptsChanged();
    },
    async close() {
      if (closed) return;
      closed = true;
      await served.close();
      await handler.close();
    },
  };
}
