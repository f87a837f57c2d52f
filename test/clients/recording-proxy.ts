/**
 * A pass-through HTTP proxy in front of the service that records what a client sent on each POST
 * (its JSON-RPC method, whether it echoed a requestState or carried inputResponses, its
 * MCP-Protocol-Version header) and what the service answered (result or error, as JSON or SSE).
 * It is how a test sees what a client did on the wire, whatever the client's language: a Python
 * client's retries are as visible as the official TypeScript client's.
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedPost {
  at: number;
  method?: string;
  protocolVersion?: string;
  requestState?: string;
  hasInputResponses: boolean;
  /**
   * Whether it declared the Tasks extension: in a request's client capabilities
   * (`io.modelcontextprotocol/tasks` in its `_meta`), or a session's (`capabilities.tasks` at `initialize`).
   */
  declaresTasks: boolean;
  /**
   * Whether an `initialize` named the extension among its `capabilities.extensions`: the
   * 2026-07-28 way of saying it, which a 2025-11-25 session does not read (it reads `capabilities.tasks`).
   */
  namesTasksAtInitialize: boolean;
  /** The JSON-RPC result of this request's response (the last message with its id), if any came. */
  result?: Record<string, unknown>;
}

export interface RecordingProxy {
  /** The proxy's /mcp URL. */
  url: string;
  posts: RecordedPost[];
  close(): Promise<void>;
}

/** Every JSON-RPC message in a response body, whether it was JSON or an SSE stream. */
function messagesIn(body: string, contentType: string | undefined): unknown[] {
  const texts = contentType?.includes('text/event-stream')
    ? body
        .split(/\r?\n\r?\n/)
        .map((event) =>
          event
            .split(/\r?\n/)
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n'),
        )
        .filter(Boolean)
    : [body];
  const messages: unknown[] = [];
  for (const text of texts) {
    try {
      const parsed: unknown = JSON.parse(text);
      messages.push(...(Array.isArray(parsed) ? parsed : [parsed]));
    } catch {
      // not JSON: an empty body, a keep-alive, an endpoint event
    }
  }
  return messages;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const posts: RecordedPost[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      let recorded: RecordedPost | undefined;
      let id: unknown;
      if (req.method === 'POST') {
        try {
          const message = JSON.parse(body.toString('utf8')) as {
            id?: unknown;
            method?: string;
            params?: {
              requestState?: string;
              inputResponses?: unknown;
              capabilities?: { tasks?: unknown; extensions?: Record<string, unknown> };
              _meta?: unknown;
            };
          };
          id = message.id;
          recorded = {
            at: Date.now(),
            ...(message.method ? { method: message.method } : {}),
            ...(typeof req.headers['mcp-protocol-version'] === 'string'
              ? { protocolVersion: req.headers['mcp-protocol-version'] }
              : {}),
            ...(message.params?.requestState ? { requestState: message.params.requestState } : {}),
            hasInputResponses: message.params?.inputResponses !== undefined,
            declaresTasks:
              (message.method === 'initialize' && message.params?.capabilities?.tasks !== undefined) ||
              JSON.stringify(message.params?._meta ?? {}).includes('io.modelcontextprotocol/tasks'),
            namesTasksAtInitialize:
              message.method === 'initialize' &&
              Object.hasOwn(message.params?.capabilities?.extensions ?? {}, 'io.modelcontextprotocol/tasks'),
          };
          posts.push(recorded);
        } catch {
          // not one JSON-RPC message: passed on unrecorded
        }
      }
      const headers: IncomingHttpHeaders = { ...req.headers, host: upstream.host };
      const forwarded = httpRequest(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          const seen: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => {
            if (recorded) seen.push(chunk);
            res.write(chunk);
          });
          answer.on('end', () => {
            res.end();
            if (!recorded) return;
            for (const message of messagesIn(Buffer.concat(seen).toString('utf8'), answer.headers['content-type'])) {
              const m = message as { id?: unknown; result?: Record<string, unknown> };
              if (m.id === id && m.result) recorded.result = m.result;
            }
          });
          answer.on('error', () => res.destroy());
        },
      );
      forwarded.on('error', () => res.destroy());
      res.on('close', () => forwarded.destroy());
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
