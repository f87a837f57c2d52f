/**
 * The tools of every upstream, as handlers, kept fresh: each upstream's `tools/list` is read when
 * the catalog starts and again every `refreshEveryMs`. An upstream that cannot be listed keeps the
 * tools it last listed (none, before its first listing) and is tried again at its next refresh; it
 * never stops the process.
 *
 * A name already taken (by a local tool, or by an upstream declared before) is not listed again:
 * the first holder keeps it, and the shadowed tool is logged once per listing.
 */
import type { ToolHandler } from '@durable-mcp/handlers';
import type { Logger } from '../log';
import type { Upstream } from './upstream-declaration';
import { createUpstreamClient, type UpstreamClient } from './upstream-client';
import { upstreamToolHandler } from './upstream-tool';

/** The most tools one upstream's listing may add: a larger listing is cut there, and said so. */
export const MAX_TOOLS_PER_UPSTREAM = 1_000;

interface Entry {
  upstream: Upstream;
  client: UpstreamClient;
  tools: ToolHandler[];
  timer?: NodeJS.Timeout;
}

export interface UpstreamCatalog {
  /** Every upstream's tools, in declaration order, names not yet `taken`. */
  tools(taken: ReadonlySet<string>): ToolHandler[];
  /** Lists every upstream's tools again now. */
  refresh(): Promise<void>;
  /** Lists each upstream once, then keeps them fresh in the background. */
  start(): Promise<void>;
  close(): Promise<void>;
  /** Called after a listing changed what an upstream offers. */
  onChange(listener: () => void): void;
}

export function createUpstreamCatalog(
  upstreams: Upstream[],
  log: Logger,
  clientOf: (upstream: Upstream) => UpstreamClient = createUpstreamClient,
): UpstreamCatalog {
  const entries: Entry[] = upstreams.map((upstream) => ({ upstream, client: clientOf(upstream), tools: [] }));
  const listeners: Array<() => void> = [];
  let closed = false;

  async function list(entry: Entry): Promise<void> {
    const { upstream } = entry;
    try {
      const listed = await entry.client.listTools();
      if (listed.length > MAX_TOOLS_PER_UPSTREAM)
        log.warn(
          { upstream: upstream.name, listed: listed.length, kept: MAX_TOOLS_PER_UPSTREAM },
          'upstream lists more tools than one upstream may add: the rest are not served',
        );
      const before = entry.tools.map((t) => t.tool.name).join('\n');
      entry.tools = listed
        .slice(0, MAX_TOOLS_PER_UPSTREAM)
        .map((tool) => upstreamToolHandler(upstream, entry.client, tool));
      log.info({ upstream: upstream.name, tools: entry.tools.length }, 'upstream tools listed');
      if (entry.tools.map((t) => t.tool.name).join('\n') !== before) for (const listener of listeners) listener();
    } catch (error) {
      log.warn(
        { upstream: upstream.name, err: error, kept: entry.tools.length },
        'upstream tools could not be listed; its last listing is kept',
      );
    }
  }

  return {
    tools(taken) {
      const names = new Set(taken);
      const tools: ToolHandler[] = [];
      for (const entry of entries)
        for (const handler of entry.tools) {
          if (names.has(handler.tool.name)) continue;
          names.add(handler.tool.name);
          tools.push(handler);
        }
      return tools;
    },
    async refresh() {
      await Promise.all(entries.map(list));
    },
    async start() {
      await Promise.all(entries.map(list));
      for (const entry of entries) {
        if (closed) break;
        entry.timer = setInterval(() => void list(entry), entry.upstream.refreshEveryMs);
        entry.timer.unref();
      }
    },
    async close() {
      closed = true;
      for (const entry of entries) clearInterval(entry.timer);
      await Promise.all(entries.map((entry) => entry.client.close()));
    },
    onChange(listener) {
      listeners.push(listener);
    },
  };
}
