/**
 * What a handler set is made of: tools, prompts and resources (static ones and URI templates).
 * `tools/call`, `prompts/get` and `resources/read` run as durable exchanges, so each of those
 * handlers may return an ask instead of its result and is re-executed with the answers.
 */
import {
  UriTemplate,
  type CallToolResult,
  type ClientCapabilities,
  type GetPromptResult,
  type InputRequiredResult,
  type LoggingLevel,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type Tool,
} from '@modelcontextprotocol/server';
import type { ResourceTemplateSchema } from '@modelcontextprotocol/core';
import type { z } from 'zod';
import type { Principal } from '../exchange/principal';
import type { OriginalRequest, RoundActivity } from '../exchange/types';
import type { Logger } from '../log';
import { unknownTarget } from '../protocol/error-catalog';

export interface HandlerContext {
  exchangeId: string;
  /** 1 on the first execution, then one more per answered ask. */
  round: number;
  /** The answers to the previous ask, raw, keyed as asked; empty on round 1. */
  inputResponses: Record<string, unknown>;
  /** The state this handler returned with its previous ask, verified and unsealed. */
  requestState?: string;
  clientCapabilities: ClientCapabilities;
  /**
   * Who the exchange belongs to: the subject, client, issuer and scopes of the token its first leg
   * carried (every later leg and answer was checked to come from the same principal), or the
   * anonymous principal when the service runs with AUTH_MODE=off. Authorize what the handler does
   * with it; it holds no credential to call anything else with (tokens are never passed through).
   */
  principal: Principal;
  /** The service's own log (pino), for operators. */
  log: Logger;
  /**
   * Reports progress to the client (`notifications/progress`), if it sent a progress token and
   * is listening on a stream. Delivered through Postgres to whichever API replica holds the leg.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Sends a log message to the client (`notifications/message`), if it asked for logs at this
   * level or above (2026-07-28: `_meta` logLevel; handshake era: `logging/setLevel`).
   */
  sendLog(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /**
   * Asks the client's stream to close now; a client that supports resumption (2025-11-25, SEP-1699)
   * reconnects and is replayed the rest of the call. Useful for long waits behind proxies.
   */
  closeStream(): Promise<void>;
  /**
   * Aborted when this execution's result will not be used: its task was cancelled or reached its
   * TTL (tasks/cancel, SEP-2663). A handler that waits or works for long should stop on it.
   */
  signal: AbortSignal;
}

/** The wire description of a resource template (the server package's `ResourceTemplate` is its own class). */
export type ResourceTemplate = z.infer<typeof ResourceTemplateSchema>;

type Outcome<R> = R | InputRequiredResult | Promise<R | InputRequiredResult>;

/** Suggests values for one argument (`completion/complete`). */
export type Completer = (value: string, context: Record<string, string>) => string[] | Promise<string[]>;

export type { RoundActivity } from '../exchange/types';

/**
 * How a handler's rounds run, declared once per tool, prompt or resource and fixed for each
 * exchange when it starts:
 *
 * - `'local'` (the default): inside the workflow task, as a Temporal local activity, with no
 *   task-queue round trip and fewer history events. One execution may take `LOCAL_HANDLER_TIMEOUT_MS`
 *   (5 s): past it the exchange ends with `-32603`.
 * - `'regular'`: as a regular activity that heartbeats every second, for a handler that may take
 *   longer (a slow service, a model): one execution may take `HANDLER_TIMEOUT_MS` (90 s).
 *
 * Both keep the same guarantees: a round recorded once is never run again, a worker that dies
 * mid-round has the round re-run on another within about 10 s, and a handler that kills its worker
 * every time ends its exchange after `MAX_HANDLER_ATTEMPTS`.
 */
interface RoundsDeclaration {
  roundActivity?: RoundActivity;
}

/**
 * Whether a tool's calls may run as tasks (the Tasks extension, SEP-2663), as `tools/list`
 * advertises it in `execution.taskSupport`:
 *
 * - `'forbidden'` (the default): every call answers over MRTR, as it always did.
 * - `'optional'`: a call from a client that declared the extension on that request runs as a task
 *   (the client gets a `CreateTaskResult` and polls `tasks/get`); any other client gets the result
 *   over MRTR.
 * - `'required'`: as optional, but a client that did not declare the extension is refused with
 *   `-32021`.
 *
 * The handler itself is the same in both cases: it asks with `inputRequired(...)` and is
 * re-executed with the answers, whether they came in a retry or in `tasks/update`.
 */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

/**
 * When a task-capable call becomes a task:
 *
 * - `'at-call'` (the default): at once; its first leg is answered with the task.
 * - `'after-input'`: its rounds that ask run synchronously over MRTR first, and the retry that
 *   answers them is answered with the task (SEP-2663: input needed to decide on the work is
 *   gathered before the task exists); the rounds after it run as the task.
 */
export type TaskBegins = 'at-call' | 'after-input';

export interface ToolHandler extends RoundsDeclaration {
  /** The tool as `tools/list` describes it. */
  tool: Tool;
  taskSupport?: TaskSupport;
  taskBegins?: TaskBegins;
  run(args: Record<string, unknown>, ctx: HandlerContext): Outcome<CallToolResult>;
}

export interface PromptHandler extends RoundsDeclaration {
  prompt: Prompt;
  run(args: Record<string, string>, ctx: HandlerContext): Outcome<GetPromptResult>;
  /** Completers by argument name. */
  complete?: Record<string, Completer>;
}

export interface ResourceHandler extends RoundsDeclaration {
  resource: Resource;
  read(uri: string, ctx: HandlerContext): Outcome<ReadResourceResult>;
}

export interface ResourceTemplateHandler extends RoundsDeclaration {
  template: ResourceTemplate;
  read(uri: string, variables: Record<string, string>, ctx: HandlerContext): Outcome<ReadResourceResult>;
  /** Completers by template variable name. */
  complete?: Record<string, Completer>;
}

export interface HandlerSet {
  name: string;
  instructions?: string;
  tools: ReadonlyArray<ToolHandler>;
  prompts?: ReadonlyArray<PromptHandler>;
  resources?: ReadonlyArray<ResourceHandler>;
  resourceTemplates?: ReadonlyArray<ResourceTemplateHandler>;
}

export const defineTool = (handler: ToolHandler): ToolHandler => handler;
export const definePrompt = (handler: PromptHandler): PromptHandler => handler;
export const defineResource = (handler: ResourceHandler): ResourceHandler => handler;
export const defineResourceTemplate = (handler: ResourceTemplateHandler): ResourceTemplateHandler => handler;

export function findTool(set: HandlerSet, name: string): ToolHandler | undefined {
  return set.tools.find((handler) => handler.tool.name === name);
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

/**
 * How the rounds of an exchange for `request` run: the handler's declaration, else `'local'`
 * (also for a target this deployment lacks: its one round only records the error).
 */
export function roundActivityFor(set: HandlerSet, request: OriginalRequest): RoundActivity {
  const { method, target } = request;
  const declared =
    method === 'tools/call'
      ? findTool(set, target)
      : method === 'prompts/get'
        ? findPrompt(set, target)
        : findResource(set, target)?.handler;
  return declared?.roundActivity ?? 'local';
}
