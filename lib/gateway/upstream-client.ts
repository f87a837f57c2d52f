/**
 * The gateway's connection to one upstream MCP server: the official TypeScript client (2.x),
 * negotiating (2026-07-28 where the server speaks it, else the handshake era, for plain calls) and
 * in manual multi-round-trip mode, so an upstream's `InputRequiredResult` comes
 * back to the round that made the call instead of being answered here. One connection per
 * upstream and process, opened on first use and opened again after a failure.
 *
 * Each call (a tool's, a prompt's or a resource's: upstream-requests.ts) declares the capabilities
 * of the exchange's own client (a 2026-07-28 request carries them in `_meta`), so an upstream asks
 * only what that client can answer, and an idempotency key naming the exchange and round
 * (`_meta.idempotencyKey`, the SEP-3182 draft's name), so an upstream that dedupes sees a retried
 * round as the same call.
 *
 * It also carries the upstream's announcements that its lists changed
 * (`notifications/tools/list_changed`, `notifications/prompts/list_changed`,
 * `notifications/resources/list_changed`) to `onListsChanged`: a 2026-07-28 upstream sends them on a
 * `subscriptions/listen` stream `listenForListChanges` holds open, a handshake-era one on its
 * session's own stream (the GET stream the SDK's transport opens after the handshake, and reopens
 * by its own backoff when it drops). A session whose stream is gone for good (session-stream-watch.ts)
 * ends its connection, so the subscription is opened again, on a new session.
 */
import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type Prompt,
  type Resource,
  type ResourceTemplateType,
  type Tool,
} from '@modelcontextprotocol/client';
import type { Upstream } from '../upstreams/upstream-declaration';
import { boundedFetch, UpstreamResponseTooLarge } from './bounded-fetch';
import { accessTokens, authorizedFetch } from './upstream-credentials';
import { watchSessionStream } from './session-stream-watch';
import { listPages, sendCall, type Listed, type UpstreamCall, type UpstreamOutcome } from './upstream-requests';

export type { UpstreamCall, UpstreamOutcome, UpstreamTarget } from './upstream-requests';

/** What an answer may carry beyond its result's `maxResultBytes`: the JSON-RPC envelope, SSE framing, a few notifications. */
const ENVELOPE_BYTES = 65_536;

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
 * `listChanged` for tools, prompts or resources), or the subscription (or, handshake-era, the
 * connection) ended.
 */
export type ListChangesListenEnd = 'unannounced' | 'ended';

/** What an upstream lists: its prompts, resources and resource templates, each cut at `max`. */
export interface UpstreamListings {
  prompts: Listed & { items: Prompt[] };
  resources: Listed & { items: Resource[] };
  resourceTemplates: Listed & { items: ResourceTemplateType[] };
}

export interface UpstreamClient {
  listTools(): Promise<Tool[]>;
  /** Its prompts, resources and resource templates (none of a kind it does not declare), `max` of each at most. */
  listOthers(max: number): Promise<UpstreamListings>;
  /** One round's call of a tool, a prompt or a resource. */
  call(call: UpstreamCall): Promise<UpstreamOutcome>;
  /** `listener` is called each time the upstream announces that its tools, prompts or resources changed. */
  onListsChanged(listener: () => void): void;
  /**
   * Opens the connection and holds the upstream's announcements of list changes open until they
   * end or `signal` aborts; rejects when they cannot be opened (upstream-tool-watch.ts opens them
   * again, with backoff).
   */
  listenForListChanges(signal: AbortSignal): Promise<ListChangesListenEnd>;
  close(): Promise<void>;
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

/** The announcements the gateway listens for, each the change of one list. */
const LIST_CHANGED = [
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
] as const;

/** Resolves when `signal` aborts (at once if it has). */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

export function createUpstreamClient(upstream: Upstream): UpstreamClient {
  let connected: Promise<Client> | undefined;
  const listListeners: Array<() => void> = [];
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
      for (const method of LIST_CHANGED)
        client.setNotificationHandler(method, () => {
          for (const listener of listListeners) listener();
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
      withClient(async (client) =>
        // An upstream that serves no tools (prompts or resources alone) is not asked for them.
        client.getServerCapabilities()?.tools
          ? (await client.listTools(undefined, { timeout: upstream.callTimeoutMs })).tools
          : [],
      ),

    async listOthers(max) {
      const list = (kind: keyof UpstreamListings) => withClient((client) => listPages(client, upstream, kind, max));
      // One after another: a listing is background work, and an upstream need not serve it in parallel.
      const prompts = await list('prompts');
      const resources = await list('resources');
      const resourceTemplates = await list('resourceTemplates');
      return { prompts, resources, resourceTemplates } as UpstreamListings;
    },

    call: (call) => withClient((client) => sendCall(client, upstream, call)),

    onListsChanged(listener) {
      listListeners.push(listener);
    },

    async listenForListChanges(signal) {
      const client = await connect();
      const declared = client.getServerCapabilities();
      const filter = {
        ...(declared?.tools?.listChanged ? { toolsListChanged: true } : {}),
        ...(declared?.prompts?.listChanged ? { promptsListChanged: true } : {}),
        ...(declared?.resources?.listChanged ? { resourcesListChanged: true } : {}),
      };
      if (Object.keys(filter).length === 0) return 'unannounced';
      const stopped = aborted(signal);
      if (client.getProtocolEra() !== 'modern') {
        // The session's own stream carries them while the connection lasts.
        await Promise.race([endOf.get(client), stopped]);
        return 'ended';
      }
      const subscription = await client.listen(filter, { timeout: upstream.callTimeoutMs, signal });
      const { honoredFilter: honored } = subscription;
      if (!honored.toolsListChanged && !honored.promptsListChanged && !honored.resourcesListChanged) {
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
