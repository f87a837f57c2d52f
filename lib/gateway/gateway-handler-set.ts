/**
 * The set a process serves in front of upstreams: the local handler set first, then every
 * upstream's tools and prompts under their prefixed names, and its resources and resource templates
 * under their own URIs (a name or URI a local handler holds stays local; first-holders.ts). The
 * lists are read through getters, so a listing that changed an upstream's offer is served from
 * the next request on, in both eras, by the API's catalog and the worker's rounds alike; and
 * `changes` says which list changed, once what a client would be listed really differs (a reload
 * whose policies change no tool says nothing), for the API to tell its clients.
 */
import type { HandlerSet } from '@durable-mcp/handlers';
import type { UpstreamCatalog } from './upstream-catalog';
import { createListChanges, type ListChanges, type ListKind } from '../handler-set/list-changes';

export interface GatewayHandlerSet {
  set: HandlerSet;
  changes: ListChanges;
}

type Served = Required<Pick<HandlerSet, 'tools' | 'prompts' | 'resources' | 'resourceTemplates'>>;

/** What a client's listing of each kind would show: a change of it is a change to announce. */
const listingsOf = (served: Served): Record<ListKind, string> => ({
  tools: JSON.stringify(served.tools.map((handler) => handler.tool)),
  prompts: JSON.stringify(served.prompts.map((handler) => handler.prompt)),
  resources: JSON.stringify([
    served.resources.map((handler) => handler.resource),
    served.resourceTemplates.map((handler) => handler.template),
  ]),
});

export function gatewayHandlerSet(local: HandlerSet, catalog: UpstreamCatalog): GatewayHandlerSet {
  const taken = {
    tools: new Set(local.tools.map((handler) => handler.tool.name)),
    prompts: new Set((local.prompts ?? []).map((handler) => handler.prompt.name)),
    resources: new Set((local.resources ?? []).map((handler) => handler.resource.uri)),
    templates: new Set((local.resourceTemplates ?? []).map((handler) => handler.template.uriTemplate)),
  };
  const combine = (): Served => ({
    tools: [...local.tools, ...catalog.tools(taken.tools)],
    prompts: [...(local.prompts ?? []), ...catalog.prompts(taken.prompts)],
    resources: [...(local.resources ?? []), ...catalog.resources(taken.resources)],
    resourceTemplates: [...(local.resourceTemplates ?? []), ...catalog.resourceTemplates(taken.templates)],
  });
  const changes = createListChanges();
  let served = combine();
  let listings = listingsOf(served);
  catalog.onChange(() => {
    served = combine();
    const now = listingsOf(served);
    const changed = (Object.keys(now) as ListKind[]).filter((kind) => now[kind] !== listings[kind]);
    listings = now;
    for (const kind of changed) changes.announce(kind);
  });
  return {
    set: {
      ...local,
      get tools() {
        return served.tools;
      },
      get prompts() {
        return served.prompts;
      },
      get resources() {
        return served.resources;
      },
      get resourceTemplates() {
        return served.resourceTemplates;
      },
    },
    changes,
  };
}
