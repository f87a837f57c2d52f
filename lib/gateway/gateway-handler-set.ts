/**
 * The set a process serves in front of upstreams: the local handler set, its tools first, then
 * every upstream's tools under their prefixed names (a name a local tool holds stays local). The
 * tools are read through a getter, so a listing that changed an upstream's tools is served from
 * the next request on, in both eras, by the API's catalog and the worker's rounds alike; and
 * `changes` says so, once the served listing really differs (a reload whose policies change no
 * tool says nothing), for the API to tell its clients.
 */
import type { HandlerSet, ToolHandler } from '@durable-mcp/handlers';
import type { UpstreamCatalog } from './upstream-catalog';
import { createToolListChanges, type ToolListChanges } from '../handler-set/tool-list-changes';

export interface GatewayHandlerSet {
  set: HandlerSet;
  changes: ToolListChanges;
}

/** What a client's `tools/list` would show of these tools: a change of it is a change to announce. */
const listingOf = (tools: ReadonlyArray<ToolHandler>) => JSON.stringify(tools.map((handler) => handler.tool));

export function gatewayHandlerSet(local: HandlerSet, catalog: UpstreamCatalog): GatewayHandlerSet {
  const localNames = new Set(local.tools.map((handler) => handler.tool.name));
  const combine = (): ReadonlyArray<ToolHandler> => [...local.tools, ...catalog.tools(localNames)];
  const changes = createToolListChanges();
  let tools = combine();
  let listing = listingOf(tools);
  catalog.onChange(() => {
    tools = combine();
    const now = listingOf(tools);
    if (now === listing) return;
    listing = now;
    changes.announce();
  });
  return {
    set: {
      ...local,
      get tools() {
        return tools;
      },
    },
    changes,
  };
}
