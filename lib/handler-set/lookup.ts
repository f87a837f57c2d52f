/**
 * The service's side of a handler set: finding the handler a request names, binding it to the
 * request's arguments, and how its rounds run. Handler authors never call these; the API and the
 * round activity do.
 */
import type {
  HandlerContext,
  HandlerSet,
  PromptHandler,
  ResourceHandler,
  ResourceTemplateHandler,
  RoundActivity,
  TaskPriority,
  ToolHandler,
} from '@durable-mcp/handlers';

type RoundsDeclaration = Pick<ToolHandler, 'roundActivity' | 'priority'>;
import { UriTemplate } from '@modelcontextprotocol/server';
import type { OriginalRequest } from '../exchange/types';
import { unknownTarget } from '../protocol/error-catalog';

export function findTool(set: HandlerSet, name: string): ToolHandler | undefined {
  return set.tools.find((handler) => handler.tool.name === name);
}

/**
 * For how long after a call of `tool` started an identical call joins it (REATTACH_IDENTICAL_CALLS_MS
 * as `windowMs`), unless the tool declares its identical calls separate (0: never).
 */
export function identicalCallWindow(tool: Pick<ToolHandler, 'identicalCalls'> | undefined, windowMs: number): number {
  return tool?.identicalCalls === 'separate' ? 0 : windowMs;
}

export function findPrompt(set: HandlerSet, name: string): PromptHandler | undefined {
  return set.prompts?.find((handler) => handler.prompt.name === name);
}

/** A readable resource: an exact URI first, else the first template that matches. */
export type ResourceMatch =
  | { kind: 'static'; handler: ResourceHandler }
  | { kind: 'template'; handler: ResourceTemplateHandler; variables: Record<string, string> };

export function findResource(set: HandlerSet, uri: string): ResourceMatch | undefined {
  const exact = set.resources?.find((handler) => handler.resource.uri === uri);
  if (exact) return { kind: 'static', handler: exact };
  for (const handler of set.resourceTemplates ?? []) {
    const variables = new UriTemplate(handler.template.uriTemplate).match(uri);
    if (variables) return { kind: 'template', handler, variables: flatten(variables) };
  }
  return undefined;
}

function flatten(variables: Record<string, string | string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(variables).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
}

/** A handler bound to the request it serves: each call is one execution, with that round's context. */
export type BoundHandler = (ctx: HandlerContext) => unknown;

/** The handler the request names, bound to its arguments; undefined when this deployment has none. */
function bindHandler(set: HandlerSet, request: OriginalRequest): BoundHandler | undefined {
  const { method, target, params } = request;
  switch (method) {
    case 'tools/call': {
      const tool = findTool(set, target);
      return tool && ((ctx) => tool.run((params.arguments ?? {}) as Record<string, unknown>, ctx));
    }
    case 'prompts/get': {
      const prompt = findPrompt(set, target);
      return prompt && ((ctx) => prompt.run((params.arguments ?? {}) as Record<string, string>, ctx));
    }
    case 'resources/read': {
      const match = findResource(set, target);
      if (!match) return undefined;
      return match.kind === 'static'
        ? (ctx) => match.handler.read(target, ctx)
        : (ctx) => match.handler.read(target, match.variables, ctx);
    }
  }
}

/**
 * The one unknown-target decision: the handler an exchange's request names, bound to its arguments,
 * or the catalog's `unknownTarget` error (thrown) when this deployment has none. The API asks before
 * it starts an exchange, on both eras; a round's activity asks again, for a worker that lacks a
 * handler the API has (version skew).
 */
export function requireHandler(set: HandlerSet, request: OriginalRequest): BoundHandler {
  const handler = bindHandler(set, request);
  if (!handler) throw unknownTarget(request.method, request.target);
  return handler;
}

/** The declaration of the handler `request` names, if this deployment has one. */
function declarationFor(set: HandlerSet, request: OriginalRequest): RoundsDeclaration | undefined {
  const { method, target } = request;
  return method === 'tools/call'
    ? findTool(set, target)
    : method === 'prompts/get'
      ? findPrompt(set, target)
      : findResource(set, target)?.handler;
}

/**
 * How the rounds of an exchange for `request` run: the handler's declaration, else `'local'`
 * (also for a target this deployment lacks: its one round only records the error).
 */
export function roundActivityFor(set: HandlerSet, request: OriginalRequest): RoundActivity {
  return declarationFor(set, request)?.roundActivity ?? 'local';
}

/** The task priority the handler `request` names declares (1 first, 5 last), if it declares one. */
export function priorityFor(set: HandlerSet, request: OriginalRequest): TaskPriority | undefined {
  return declarationFor(set, request)?.priority;
}
