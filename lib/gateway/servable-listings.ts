/**
 * The prompts, resources and resource templates of an upstream's listing the service can serve:
 * each must be what the specification describes (the SDK's schema), a prompt under its prefixed
 * name, and a template's `uriTemplate` must parse (the service matches every read against it). One
 * that does not is left out with a warning naming why, instead of stopping the service or failing
 * every read at the API: an upstream's listing is not ours to fix.
 */
import { PromptSchema, ResourceSchema, ResourceTemplateSchema } from '@modelcontextprotocol/core';
import { UriTemplate, type Prompt, type Resource } from '@modelcontextprotocol/server';
import type { ResourceTemplate } from '@durable-mcp/handlers';
import type { Logger } from '../log';
import type { Upstream } from '../upstreams/upstream-declaration';
import { listedPrompt } from './upstream-prompt-resource';

/** Why the service cannot serve `template`, or undefined when it can. */
function templateProblem(template: unknown): string | undefined {
  const parsed = ResourceTemplateSchema.safeParse(template);
  if (!parsed.success) return 'its description is not a valid resource template';
  try {
    new UriTemplate(parsed.data.uriTemplate);
    return undefined;
  } catch (error) {
    return `its uriTemplate does not parse: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The entries of `items` that pass `problem`, each other one said in a warning naming it by its `key`. */
function kept<T>(
  items: unknown[],
  upstream: Upstream,
  log: Pick<Logger, 'warn'>,
  what: string,
  key: 'name' | 'uri' | 'uriTemplate',
  problem: (item: unknown) => string | undefined,
): T[] {
  return items.filter((item) => {
    const reason = problem(item);
    if (reason) {
      const named = (item as Record<string, unknown> | null)?.[key];
      log.warn({ upstream: upstream.name, [key]: named, reason }, `an upstream ${what} is not served`);
    }
    return reason === undefined;
  }) as T[];
}

export const servablePrompts = (items: unknown[], upstream: Upstream, log: Pick<Logger, 'warn'>): Prompt[] =>
  kept(items, upstream, log, 'prompt', 'name', (item) =>
    PromptSchema.safeParse(item).success && PromptSchema.safeParse(listedPrompt(upstream, item as Prompt)).success
      ? undefined
      : 'its description is not a valid prompt',
  );

export const servableResources = (items: unknown[], upstream: Upstream, log: Pick<Logger, 'warn'>): Resource[] =>
  kept(items, upstream, log, 'resource', 'uri', (item) =>
    ResourceSchema.safeParse(item).success ? undefined : 'its description is not a valid resource',
  );

export const servableTemplates = (
  items: unknown[],
  upstream: Upstream,
  log: Pick<Logger, 'warn'>,
): ResourceTemplate[] => kept(items, upstream, log, 'resource template', 'uriTemplate', templateProblem);
