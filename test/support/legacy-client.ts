/**
 * A bare legacy (2024-11-05 … 2025-11-25) Streamable HTTP client, for tests that need exact
 * control over each message: which replica a response is POSTed to, a response sent twice, a
 * stream dropped and resumed with Last-Event-ID, a request never answered. End-to-end behaviour is
 * tested with the official 1.x client (`@modelcontextprotocol/sdk`) instead.
 *
 * Every reply is read as a `MessageStream`: an SSE body is parsed event by event (`id:`, `event:`,
 * `data:`, comments, CRLF/CR/LF line ends, events split across chunks), a JSON body becomes a stream
 * of its one message. Reads have deadlines, so a server that never answers fails the test quickly
 * with what it did send, instead of hanging until jest's timeout.
 */

export type JsonRpcId = string | number;

export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** Any JSON-RPC message: a request (method + id), a notification (method, no id) or a response. */
export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: JsonRpcId | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: JsonRpcError;
}

export const LATEST_HANDSHAKE_VERSION = '2025-11-25';
export const DEFAULT_READ_TIMEOUT_MS = 15_000;

export const isRequest = (m: JsonRpcMessage, method?: string): boolean =>
  typeof m.method === 'string' && m.id !== undefined && m.id !== null && (method === undefined || m.method === method);
export const isNotification = (m: JsonRpcMessage, method?: string): boolean =>
  typeof m.method === 'string' && m.id === undefined && (method === undefined || m.method === method);
export const isResponseTo = (m: JsonRpcMessage, id: JsonRpcId): boolean =>
  m.method === undefined && m.id === id && ('result' in m || 'error' in m);

// ---------------------------------------------------------------------------------------------
// SSE parsing (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation)

export interface SseEvent {
  /** The `id:` field of this event's block, if it had one. */
  id?: string;
  /** The `event:` field, `message` when absent. */
  event: string;
  /** The `data:` lines joined with `\n` (empty for a priming event that only carries an id). */
  data: string;
}

/** Incremental parser: feed it decoded text as it arrives; it returns the events completed. */
export class SseParser {
  private buffer = '';
  private dataLines: string[] = [];
  private eventType = '';
  private blockId: string | undefined;
  private skipLf = false;
  /** The last `id:` seen on the stream (what a client sends back as Last-Event-ID). */
  lastEventId: string | undefined;
  /** The last `retry:` the server asked for, in ms. */
  retryMs: number | undefined;

  feed(text: string): SseEvent[] {
    // A CR that ended the previous chunk may have been the first half of a CRLF.
    if (this.skipLf && text.startsWith('\n')) text = text.slice(1);
    this.skipLf = false;
    this.buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      if (match[0] === '\r' && match.index === this.buffer.length - 1) this.skipLf = true;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined; // comment / keep-alive
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.dataLines.push(value);
        break;
      case 'event':
        this.eventType = value;
        break;
      case 'id':
        if (!value.includes('\0')) {
          this.blockId = value;
          this.lastEventId = value;
        }
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        break;
      default:
        break; // unknown fields are ignored
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    const event: SseEvent = { event: this.eventType || 'message', data: this.dataLines.join('\n') };
    if (this.blockId !== undefined) event.id = this.blockId;
    const empty = this.dataLines.length === 0 && this.blockId === undefined;
    this.dataLines = [];
    this.eventType = '';
    this.blockId = undefined;
    return empty ? undefined : event;
  }
}

// ---------------------------------------------------------------------------------------------
// Reading a reply

export interface StreamedMessage {
  /** The SSE `id:` of the event that carried the message (undefined for JSON bodies). */
  eventId?: string;
  message: JsonRpcMessage;
}

function listMessages(messages: StreamedMessage[]): string {
  return messages.length ? messages.map((m) => JSON.stringify(m)).join('\n  ') : '(nothing)';
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms ${what()}`)), Math.max(ms, 0));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The body of one HTTP reply as JSON-RPC messages, in order. `events` keeps every SSE event (also
 * priming events without data, and events of other types); `messages` keeps every JSON-RPC message
 * seen so far, consumed or not.
 */
export class MessageStream {
  readonly events: SseEvent[] = [];
  readonly messages: StreamedMessage[] = [];
  private readonly queue: StreamedMessage[] = [];
  private readonly parser = new SseParser();
  private readonly decoder = new TextDecoder();
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private pending: Promise<void> | undefined;
  private done = false;
  /** Set when the body stopped because of a network error rather than a clean end. */
  failure: unknown;

  private constructor(
    readonly response: Response,
    private readonly abort: AbortController,
    readonly label: string,
  ) {}

  static async from(response: Response, abort: AbortController, label: string): Promise<MessageStream> {
    const stream = new MessageStream(response, abort, label);
    if (stream.isSse) {
      stream.reader = response.body?.getReader();
      if (!stream.reader) stream.done = true;
      return stream;
    }
    // JSON (or an empty / non-JSON body): read it whole now.
    const text = await response.text().catch(() => '');
    stream.done = true;
    if (text.trim()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(
          `${label}: HTTP ${response.status} with a body that is neither SSE nor JSON: ${text.slice(0, 500)}`,
        );
      }
      for (const message of Array.isArray(parsed) ? parsed : [parsed])
        stream.push({ message: message as JsonRpcMessage });
    }
    return stream;
  }

  get status(): number {
    return this.response.status;
  }

  get contentType(): string {
    return this.response.headers.get('content-type') ?? '';
  }

  get isSse(): boolean {
    return this.contentType.toLowerCase().startsWith('text/event-stream');
  }

  /** Whether the body has ended (cleanly, by abort, or by a network error). */
  get ended(): boolean {
    return this.done && this.queue.length === 0;
  }

  /** The last SSE id seen on this stream. */
  get lastEventId(): string | undefined {
    return this.parser.lastEventId;
  }

  /** The last `retry:` the server sent on this stream (how soon to reconnect), in ms. */
  get retryMs(): number | undefined {
    return this.parser.retryMs;
  }

  /** Ids of every SSE event seen, in order (priming events included). */
  get eventIds(): string[] {
    return this.events.flatMap((e) => (e.id !== undefined ? [e.id] : []));
  }

  private push(item: StreamedMessage): void {
    this.messages.push(item);
    this.queue.push(item);
  }

  private readChunk(): Promise<void> {
    this.pending ??= (async () => {
      try {
        const { value, done } = await this.reader!.read();
        if (done) {
          this.done = true;
          this.ingest(this.decoder.decode());
          return;
        }
        this.ingest(this.decoder.decode(value, { stream: true }));
      } catch (error) {
        this.done = true;
        if (!this.abort.signal.aborted) this.failure = error;
      }
    })().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private ingest(text: string): void {
    for (const event of this.parser.feed(text)) {
      this.events.push(event);
      if (event.event !== 'message' || !event.data) continue;
      let message: JsonRpcMessage;
      try {
        message = JSON.parse(event.data) as JsonRpcMessage;
      } catch {
        throw new Error(`${this.label}: SSE event data is not JSON: ${event.data.slice(0, 500)}`);
      }
      this.push(event.id !== undefined ? { eventId: event.id, message } : { message });
    }
  }

  /** The next message, or undefined once the body has ended. Rejects after `timeoutMs`. */
  async next(timeoutMs = DEFAULT_READ_TIMEOUT_MS): Promise<StreamedMessage | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.queue.length === 0 && !this.done) {
      await withDeadline(
        this.readChunk(),
        deadline - Date.now(),
        () => `waiting on ${this.label}; it sent:\n  ${listMessages(this.messages)}`,
      );
    }
    return this.queue.shift();
  }

  /** Reads until a message matches; what it skips stays in `messages`. */
  async until(
    predicate: (m: JsonRpcMessage) => boolean,
    what: string,
    timeoutMs = DEFAULT_READ_TIMEOUT_MS,
  ): Promise<StreamedMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let item: StreamedMessage | undefined;
      try {
        item = await this.next(deadline - Date.now());
      } catch (error) {
        throw new Error(`${this.label}: no ${what}: ${(error as Error).message}`);
      }
      if (!item) {
        const how = this.failure ? `failed (${String(this.failure)})` : 'ended';
        throw new Error(
          `${this.label} (HTTP ${this.status}, ${this.contentType || 'no content type'}) ${how} before ${what}; it sent:\n  ${listMessages(this.messages)}`,
        );
      }
      if (predicate(item.message)) return item;
    }
  }

  /** Reads to the end of the body and returns every message it carried (consumed or not). */
  async drain(timeoutMs = DEFAULT_READ_TIMEOUT_MS): Promise<StreamedMessage[]> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.next(deadline - Date.now())) !== undefined) {
      /* keep reading */
    }
    return this.messages;
  }

  /**
   * Keeps reading for up to `ms` (or until the body ends) and returns every message so far; unlike
   * `drain`, running out of time is not an error. For "and nothing else arrives" assertions.
   */
  async settle(ms: number): Promise<StreamedMessage[]> {
    const deadline = Date.now() + ms;
    while (!this.done && Date.now() < deadline) {
      await Promise.race([
        this.readChunk(),
        new Promise((resolve) => setTimeout(resolve, Math.max(deadline - Date.now(), 0)).unref()),
      ]);
    }
    this.queue.length = 0;
    return this.messages;
  }

  /** Drops the connection (what a client does when its network goes away). */
  close(): void {
    this.done = true;
    this.abort.abort();
    this.reader?.cancel().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// A session

export interface OpenOptions {
  protocolVersion?: string;
  capabilities?: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
  /** Sent with every request of the session (an `Authorization` header, say); a request's own headers win. */
  headers?: Record<string, string>;
}

export interface SendOptions {
  /** Another replica's /mcp URL; the session's own URL when absent. */
  url?: string;
  headers?: Record<string, string>;
}

const READ_HEADERS = { accept: 'application/json, text/event-stream' };

/** POSTs one JSON-RPC message without any session headers and reads the reply. */
export async function postMessage(
  url: string,
  message: object,
  headers: Record<string, string> = {},
  label = 'reply',
): Promise<MessageStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...READ_HEADERS, ...headers },
    body: JSON.stringify(message),
    signal: abort.signal,
  });
  return MessageStream.from(response, abort, label);
}

let initializeIds = 0;

export class LegacySession {
  private nextId = 1;
  private readonly open = new Set<MessageStream>();

  private constructor(
    readonly url: string,
    readonly sessionId: string,
    readonly protocolVersion: string,
    readonly initializeResult: Record<string, unknown>,
    private readonly always: Record<string, string> = {},
  ) {}

  /**
   * `initialize` (no MCP-Protocol-Version header: the version is being negotiated), then
   * `notifications/initialized`. Throws with what the server said if either is refused.
   */
  static async open(url: string, options: OpenOptions = {}): Promise<LegacySession> {
    const id = `init-${++initializeIds}`;
    const reply = await postMessage(
      url,
      {
        jsonrpc: '2.0',
        id,
        method: 'initialize',
        params: {
          protocolVersion: options.protocolVersion ?? LATEST_HANDSHAKE_VERSION,
          capabilities: options.capabilities ?? {},
          clientInfo: options.clientInfo ?? { name: 'durable-mcp-legacy-tests', version: '1.0.0' },
        },
      },
      options.headers ?? {},
      'initialize reply',
    );
    if (reply.status !== 200) {
      const sent = await reply.drain().catch(() => reply.messages);
      throw new Error(`initialize was refused: HTTP ${reply.status} ${listMessages(sent)}`);
    }
    const answer = await reply.until((m) => isResponseTo(m, id), 'response to initialize');
    reply.close();
    if (!answer.message.result) {
      throw new Error(`initialize was refused: HTTP ${reply.status} ${JSON.stringify(answer.message)}`);
    }
    const sessionId = reply.response.headers.get('mcp-session-id');
    if (!sessionId)
      throw new Error(`initialize succeeded but sent no Mcp-Session-Id header: ${JSON.stringify(answer.message)}`);
    const result = answer.message.result;
    const session = new LegacySession(url, sessionId, String(result.protocolVersion), result, options.headers);
    const status = await session.notify('notifications/initialized');
    if (status !== 202) throw new Error(`notifications/initialized answered HTTP ${status}, expected 202`);
    return session;
  }

  /** The headers every post-initialize request carries. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      'content-type': 'application/json',
      ...READ_HEADERS,
      'mcp-session-id': this.sessionId,
      'mcp-protocol-version': this.protocolVersion,
      ...this.always,
      ...extra,
    };
  }

  /** A fresh numeric id for a client request (the server's own ids are strings). */
  newId(): number {
    return this.nextId++;
  }

  /** POSTs any body with the session headers; returns the raw response. */
  async post(body: object, options: SendOptions = {}): Promise<Response> {
    return fetch(options.url ?? this.url, {
      method: 'POST',
      headers: this.headers(options.headers),
      body: JSON.stringify(body),
    });
  }

  /** POSTs a request and returns the reply as a stream (the caller reads it). */
  async request(
    method: string,
    params: Record<string, unknown> = {},
    options: SendOptions & { id?: JsonRpcId } = {},
  ): Promise<{ id: JsonRpcId; stream: MessageStream }> {
    const id = options.id ?? this.newId();
    const abort = new AbortController();
    const response = await fetch(options.url ?? this.url, {
      method: 'POST',
      headers: this.headers(options.headers),
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      signal: abort.signal,
    });
    const stream = await MessageStream.from(response, abort, `${method} (id ${JSON.stringify(id)}) stream`);
    this.open.add(stream);
    return { id, stream };
  }

  /** A request whose reply is read to its response; returns the response message. */
  async call(method: string, params: Record<string, unknown> = {}, options: SendOptions = {}): Promise<JsonRpcMessage> {
    const { id, stream } = await this.request(method, params, options);
    try {
      return (await stream.until((m) => isResponseTo(m, id), `response to ${method}`)).message;
    } finally {
      stream.close();
    }
  }

  /** POSTs the client's JSON-RPC result for a server-to-client request; returns the HTTP status. */
  async respond(id: JsonRpcId, result: Record<string, unknown>, options: SendOptions = {}): Promise<number> {
    const response = await this.post({ jsonrpc: '2.0', id, result }, options);
    await response.body?.cancel();
    return response.status;
  }

  /** POSTs the client's JSON-RPC error for a server-to-client request; returns the HTTP status. */
  async respondError(id: JsonRpcId, error: JsonRpcError, options: SendOptions = {}): Promise<number> {
    const response = await this.post({ jsonrpc: '2.0', id, error }, options);
    await response.body?.cancel();
    return response.status;
  }

  /** POSTs a notification; returns the HTTP status (202 expected). */
  async notify(method: string, params?: Record<string, unknown>, options: SendOptions = {}): Promise<number> {
    const response = await this.post({ jsonrpc: '2.0', method, ...(params ? { params } : {}) }, options);
    await response.body?.cancel();
    return response.status;
  }

  /** Opens a GET stream of the session, optionally resuming after `lastEventId`. */
  async listen(options: SendOptions & { lastEventId?: string } = {}): Promise<MessageStream> {
    const abort = new AbortController();
    const response = await fetch(options.url ?? this.url, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': this.sessionId,
        'mcp-protocol-version': this.protocolVersion,
        ...this.always,
        ...(options.lastEventId !== undefined ? { 'last-event-id': options.lastEventId } : {}),
        ...options.headers,
      },
      signal: abort.signal,
    });
    const stream = await MessageStream.from(
      response,
      abort,
      `GET stream${options.lastEventId !== undefined ? ` after ${options.lastEventId}` : ''}`,
    );
    this.open.add(stream);
    return stream;
  }

  /** DELETE /mcp for this session; returns the HTTP status. */
  async terminate(options: SendOptions = {}): Promise<number> {
    const response = await fetch(options.url ?? this.url, {
      method: 'DELETE',
      headers: {
        'mcp-session-id': this.sessionId,
        'mcp-protocol-version': this.protocolVersion,
        ...this.always,
        ...options.headers,
      },
    });
    await response.body?.cancel();
    return response.status;
  }

  /** Drops every stream this session opened and, best effort, ends the session. */
  async close(): Promise<void> {
    for (const stream of this.open) stream.close();
    this.open.clear();
    await this.terminate().catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// A 2024-11-05 (HTTP+SSE) session

/**
 * GET /sse, read up to its `endpoint` announcement; `post` sends a message to the endpoint it
 * announced. `headers` go with the GET and every post (an `Authorization` header, say).
 */
export async function openSseSession(mcpUrl: string, headers: Record<string, string> = {}) {
  const base = mcpUrl.replace(/\/mcp$/, '');
  const abort = new AbortController();
  const response = await fetch(`${base}/sse`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const stream = await MessageStream.from(response, abort, 'GET /sse stream');
  const deadline = Date.now() + 10_000;
  while (!stream.events.some((e) => e.event === 'endpoint') && Date.now() < deadline) await stream.settle(100);
  const endpoint = stream.events.find((e) => e.event === 'endpoint')?.data;
  if (!endpoint) throw new Error(`GET /sse announced no endpoint (HTTP ${stream.status})`);
  const sessionId = new URL(endpoint, base).searchParams.get('sessionId')!;
  const post = (message: object, extra: Record<string, string> = {}) =>
    fetch(new URL(endpoint, base), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers, ...extra },
      body: JSON.stringify(message),
    });
  return { stream, sessionId, post, close: () => stream.close() };
}
