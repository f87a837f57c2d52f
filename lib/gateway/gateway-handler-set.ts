/**
 * The set a process serves in front of upstreams: the local handler set, its tools first, then
 * every upstream's tools under their prefixed names (a name a local tool holds stays local). The
 * tools are read through a getter, so a listing that changed an upstream's tools is served from
 * the next request on, in both eras, by the API's catalog and the worker's rounds alike.
 */
import type { HandlerSet, ToolHandler } from '@durable-mcp/handlers';
import type { UpstreamCatalog } from './upstream-catalog';

export function gatewayHandlerSet(local: HandlerSet, catalog: UpstreamCatalog): HandlerSet {
  const localNames = new Set(local.tools.map((handler) => handler.tool.name));
  const combine = (): ReadonlyArray<ToolHandler> => [...local.tools, ...catalog.tools(localNames)];
  let tools = combine();
  catalog.onChange(() => (tools = combine()));
  return {
    ...local,
    get tools() {
      return tools;
    },
  };
}
