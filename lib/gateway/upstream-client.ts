/**
 * The gateway's connection to one upstream MCP server: the official TypeScript client (2.x),
 * negotiating (2026-07-28 where the server speaks it, else the handshake era, for plain calls) and
 * in manual multi-round-trip mode, so an upstream's `InputRequiredResult` comes
 * back to the round that made the call instead of being answered here. One connection per
 * upstream and process, opened on first use and opened again after a failure.
 *
 * Each call declares the capabilities of the exchange's own client (a 2026-07-28 request carries
 * them in `_meta`), so an upstream asks only what that client can answer, and an idempotency key
 * naming the exchange and round (`_meta.idempotencyKey`, the SEP-3182 draft's name), so an upstream
 * that dedupes sees a retried round as the same call.
 *
 * It also carries the upstream's announcements that its tools changed
 * (`notifications/tools/list_changed`) to `onToolsChanged`: a 2026-07-28 upstream sends them on a
 * `subscriptions/listen` stream `listenForToolChanges` holds open, a handshake-era one on its
 * session's own stream (the GET stream the SDK's transport opens after the handshake, and reopens
 * by its own backoff when it drops). A session whose stream is gone for good (session-stream-watch.ts)
 * ends its connection, so the subscription is opened again, on a new session.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type Tool,
} from '@modelcontextprotocol/client';
import { context, propagation } from '@opentelemetry/api';
import type { Upstream } from '../upstreams/upstream-declaration';
import { boundedFetch, UpstreamResponseTooLarge } from './bounded-fetch';
import { accessTokens, authorizedFetch } from './upstream-credentials';
import { watchSessionStream } from './session-stream-watch';

/** What an answer may carry beyond its result's `maxResultBytes`: the JSON-RPC envelope, SSE framing, a few notifications. */
const ENVELOPE_BYTES = 65_536;

/** Where the caller goes, for an upstream that reads it (`forwardCaller`). */
export const CALLER_META_KEY = 'io.durable-mcp/caller';
/** The SEP-3182 draft's name for a request's idempotency key, sent in `_meta`. */
export const IDEMPOTENCY_META_KEY = 'idempotencyKey';

export interface UpstreamCall {
  /** The upstream's tool, as it last listed it. */
  tool: Tool;
  arguments: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  clientCapabilities: Record<string, unknown>;
  idempotencyKey: string;
  caller?: Record<string, unknown>;
  signal?: AbortSignal;
}

export type UpstreamOutcome =
  | { kind: 'complete'; result: Record<string, unknown> }
  | { kind: 'input_required'; inputRequests: Record<string, unknown>; requestState?: string };

/** The upstream answered the call with a JSON-RPC error: its code and message, passed on. */
export class UpstreamProtocolError extends Error {
  override readonly name = 'UpstreamProtocolError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * How holding the upstream's announcements open ended: it makes none (it declares no
 * `tools.listChanged`), or the subscription (or, handshake-era, the connection) ended.
 */
export type ToolChangesListenEnd = 'unannounced' | 'ended';

export interface UpstreamClient {
  listTools(): Promise<Tool[]>;
  callTool(call: UpstreamCall): Promise<UpstreamOutcome>;
  /** `listener` is called each time the upstream announces that its tools changed. */
  onToolsChanged(listener: () => void): void;
  /**
   * Opens the connection and holds the upstream's announcements of tool changes open until they
   * end or `signal` aborts; rejects when they cannot be opened (upstream-tool-watch.ts opens them
   * again, with backoff).
   */
  listenForToolChanges(signal: AbortSignal): Promise<ToolChangesListenEnd>;
  close(): Promise<void>;
}

/** The active span's W3C trace context (none while traces are off). */
function traceContext(): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** Whether `error` says the connection itself is gone, rather than one request failing on it. */
function connectionLost(error: unknown): boolean {
  if (error instanceof UpstreamResponseTooLarge) return false;
  if (error instanceof SdkHttpError) return error.status === 404; // a session the server no longer knows
  if (error instanceof SdkError) return error.code !== SdkErrorCode.RequestTimeout;
  const name = (error as { name?: unknown } | null)?.name;
  return name !== 'AbortError' && name !== 'TimeoutError';
}

const CLIENT_INFO = { name: 'durable-mcp-gateway', version: '1' };

function withoutOutputSchema(tool: Tool): Tool {
  const { outputSchema: _checkedByTheCaller, ...rest } = tool;
  return rest;
}

/** Resolves when `signal` aborts (at once if it has). */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

export function createUpstreamClient(upstream: Upstream): UpstreamClient {
  let connected: Promise<Client> | undefined;
  const toolListeners: Array<() => void> = [];
  /** Each open connection, and what resolves once it closed. */
  const endOf = new WeakMap<Client, Promise<void>>();
  // One credential per upstream and process: a token got once serves every call until it expires.
  const tokens = accessTokens(upstream);

  /** Ends `client`'s connection, unless another replaced it meanwhile: the next call opens another. */
  function drop(current: Promise<Client>, client: Client): void {
    if (connected === current) connected = undefined;
    void client.close().catch(() => undefined);
  }

  function connect(): Promise<Client> {
    if (connected) return connected;
    const opening: Promise<Client> = (async () => {
      const client = new Client(CLIENT_INFO, {
        // None: a handshake-era server's server-to-client request cannot outlive its connection, so
        // no round could carry its answer; its own SDK then refuses its ask. (On 2026-07-28 each
        // call declares its caller's capabilities instead.)
        capabilities: {},
        // 'auto': server/discover first, so a 2026-07-28 server is called as one; a handshake-era server
        // (no discover) is initialized instead, and serves its plain calls.
        versionNegotiation: { mode: 'auto' },
        inputRequired: { autoFulfill: false },
      });
      // A handshake-era session whose stream is gone (the server restarted, or it stayed down) hears
      // no more announcements: its connection ends, and the next one is a new session, with its stream.
      const stream = watchSessionStream(
        boundedFetch(upstream.maxResultBytes + ENVELOPE_BYTES, authorizedFetch(tokens)),
        () => {
          if (client.getProtocolEra() !== 'modern') drop(opening, client);
        },
      );
      const transport = new StreamableHTTPClientTransport(new URL(upstream.url), { fetch: stream.fetch });
      // Both eras deliver the upstream's announcement here: the handshake era's on the session's
      // GET stream, the 2026-07-28 one's on a subscriptions/listen stream.
      client.setNotificationHandler('notifications/tools/list_changed', () => {
        for (const listener of toolListeners) listener();
      });
      endOf.set(
        client,
        new Promise<void>(
          (resolve) =>
            (client.onclose = () => {
              stream.stop();
              resolve();
            }),
        ),
      );
      await client.connect(transport, { timeout: upstream.callTimeoutMs });
      return client;
    })();
    connected = opening;
    // A connection that failed is not kept: the next call opens another.
    opening.catch(() => {
      if (connected === opening) connected = undefined;
    });
    return opening;
  }

  /**
   * Runs `use` on the connection. A failure of the connection itself (refused, reset, closed, a
   * session the server forgot) drops it, if no other call replaced it meanwhile, so the next call
   * opens another; a failure of this request alone (its timeout, its abort, an HTTP status, an answer
   * too large) leaves it to the calls sharing it.
   */
  async function withClient<T>(use: (client: Client) => Promise<T>): Promise<T> {
    const current = connect();
    const client = await current;
    try {
      return await use(client);
    } catch (error) {
      if (error instanceof ProtocolError) throw new UpstreamProtocolError(error.code, error.message, error.data);
      if (connectionLost(error)) drop(current, client);
      throw error;
    }
  }

  return {
    listTools: () =>
      withClient(async (client) => (await client.listTools(undefined, { timeout: upstream.callTimeoutMs })).tools),

    callTool: (call) =>
      withClient(async (client) => {
        const result = (await client.callTool(
          {
            name: call.tool.name,
            arguments: call.arguments,
            ...(call.inputResponses && Object.keys(call.inputResponses).length > 0
              ? { inputResponses: call.inputResponses }
              : {}),
            ...(call.requestState !== undefined ? { requestState: call.requestState } : {}),
            _meta: {
              // The trace goes on at the upstream: `traceparent`/`tracestate`, as MCP carries them.
              ...traceContext(),
              [CLIENT_CAPABILITIES_META_KEY]: call.clientCapabilities,
              [IDEMPOTENCY_META_KEY]: call.idempotencyKey,
              ...(call.caller ? { [CALLER_META_KEY]: call.caller } : {}),
            },
          } as Parameters<Client['callTool']>[0],
          {
            timeout: upstream.callTimeoutMs,
            allowInputRequired: true,
            // The client checks a result against the tool's output schema, an InputRequiredResult
            // too, which has no structured content: a tool with an output schema could never ask.
            // The result is carried, not checked, here; the caller's client checks it against the
            // schema the service lists. The input schema stays, for the headers it declares.
            toolDefinition: withoutOutputSchema(call.tool),
            ...(call.signal ? { signal: call.signal } : {}),
          } as Parameters<Client['callTool']>[1],
        )) as Record<string, unknown>;
        if (result.resultType === 'input_required')
          return {
            kind: 'input_required',
            inputRequests: (result.inputRequests as Record<string, unknown> | undefined) ?? {},
            ...(typeof result.requestState === 'string' ? { requestState: result.requestState } : {}),
          };
        return { kind: 'complete', result };
      }),

    onToolsChanged(listener) {
      toolListeners.push(listener);
    },

    async listenForToolChanges(signal) {
      const client = await connect();
      if (!client.getServerCapabilities()?.tools?.listChanged) return 'unannounced';
      const stopped = aborted(signal);
      if (client.getProtocolEra() !== 'modern') {
        // The session's own stream carries them while the connection lasts.
        await Promise.race([endOf.get(client), stopped]);
        return 'ended';
      }
      const subscription = await client.listen({ toolsListChanged: true }, { timeout: upstream.callTimeoutMs, signal });
      if (!subscription.honoredFilter.toolsListChanged) {
        await subscription.close();
        return 'unannounced';
      }
      await Promise.race([subscription.closed, stopped]);
      await subscription.close();
      return 'ended';
    },

    async close() {
      const client = await connected?.catch(() => undefined);
      connected = undefined;
      await client?.close().catch(() => undefined);
    },
  };
}
