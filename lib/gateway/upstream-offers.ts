/**
 * What an upstream offers besides its tools, as handlers: its prompts, resources and resource
 * templates, read from its listings (upstream-requests.ts `listPages`, each cut at the upstream's
 * `maxListed`, and said so), each kept only when the service can serve it (servable-listings.ts).
 */
import type { PromptHandler, ResourceHandler, ResourceTemplateHandler } from '@durable-mcp/handlers';
import type { Logger } from '../log';
import type { Upstream } from '../upstreams/upstream-declaration';
import type { UpstreamClient } from './upstream-client';
import { servablePrompts, servableResources, servableTemplates } from './servable-listings';
import { upstreamPromptHandler, upstreamResourceHandler, upstreamTemplateHandler } from './upstream-prompt-resource';

export interface UpstreamOffers {
  prompts: PromptHandler[];
  resources: ResourceHandler[];
  resourceTemplates: ResourceTemplateHandler[];
  /** What they were made from, to tell a change (an entry added, dropped or redescribed). */
  listing: string;
}

export const NO_OFFERS: UpstreamOffers = { prompts: [], resources: [], resourceTemplates: [], listing: '' };

/** Lists `upstream`'s prompts, resources and resource templates; rejects when a listing fails. */
export async function listOffers(
  upstream: Upstream,
  client: UpstreamClient,
  log: Pick<Logger, 'warn'>,
): Promise<UpstreamOffers> {
  const listed = await client.listOthers(upstream.maxListed);
  for (const [kind, { items, cut }] of Object.entries(listed))
    if (cut)
      log.warn(
        { upstream: upstream.name, kind, kept: items.length, maxListed: upstream.maxListed },
        'upstream lists more than one upstream may add (maxListed): the rest are not served',
      );
  const prompts = servablePrompts(listed.prompts.items, upstream, log);
  const resources = servableResources(listed.resources.items, upstream, log);
  const resourceTemplates = servableTemplates(listed.resourceTemplates.items, upstream, log);
  return {
    prompts: prompts.map((prompt) => upstreamPromptHandler(upstream, client, prompt)),
    resources: resources.map((resource) => upstreamResourceHandler(upstream, client, resource)),
    resourceTemplates: resourceTemplates.map((template) => upstreamTemplateHandler(upstream, client, template)),
    listing: JSON.stringify([prompts, resources, resourceTemplates]),
  };
}
