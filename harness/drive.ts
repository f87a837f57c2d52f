/**
 * Drives a handler round by round, in this process, without Temporal or Postgres: the way a
 * 2026-07-28 client drives it through the service (call, read the ask, retry with the answers and
 * the requestState it was given, read the result), with the rules the service applies at each leg
 * taken from the service's own code rather than restated here:
 *
 * - the request and the handler set are checked as the service checks them at start-up and at the
 *   first leg (SDK schemas, arguments against the tool's `inputSchema`, unknown targets);
 * - each round's handler runs through the worker's own execution (`executeHandler`) with the
 *   context a round gets (`roundResponses`, the handler's state sealed and opened again with a
 *   throwaway key), and its ask passes the worker's rules (`applyAskRules`: capabilities the client
 *   did not declare, the round cap);
 * - each answer passes the API's rules: the requestState is verified (`RequestStateCodec`), then
 *   classified like a real retry (`classifyAnswer`: answers only under the keys asked, the same
 *   answers again get the same outcome, different ones are refused, answers after the round's
 *   deadline are refused), and the workflow's own bookkeeping (`exchange-state.ts`) counts asks.
 *
 * This file holds the entry points; one exchange's rounds are drive-exchange.ts's, the steps that end
 * a drive and the defaults drive-steps.ts's, and what a test reads drive-types.ts's.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/server';
import type { HandlerSet, PromptHandler, ToolHandler } from '@durable-mcp/handlers';
import { createArgumentChecks, type ArgumentChecks } from '../lib/handler-set/argument-checks';
import { readOriginalRequest } from '../lib/protocol/original-request';
import { checkHandlerSet } from '../cli/start/handler-set-check';
import type { ExchangeMethod, OriginalRequest } from '../lib/exchange/types';
import { requireHandler } from '../lib/handler-set/lookup';
import { RpcError } from '../lib/protocol/rpc-error';
import { Exchange } from './drive-exchange';
import { ended, refusal, toJson } from './drive-steps';
import type { DriveOptions, Handlers, PromptStep, ResourceStep, Step, ToolStep } from './drive-types';

export type {
  Answerer,
  AnswerOptions,
  Ask,
  DriveOptions,
  HandlerNotification,
  Handlers,
  JsonRpcError,
  PromptStep,
  ResourceStep,
  Step,
  ToolStep,
} from './drive-types';
export { DEFAULT_MAX_ROUNDS, DEFAULT_ROUND_TIMEOUT_MS } from './drive-steps';

/** Sets already checked, with their argument checks (a set is checked once, as the service checks it once at start-up). */
const checked = new WeakMap<HandlerSet, ArgumentChecks>();

function asHandlerSet(handlers: Handlers): HandlerSet {
  if (Array.isArray(handlers)) return { name: 'test', tools: handlers as ToolHandler[] };
  if ('tool' in (handlers as ToolHandler)) return { name: 'test', tools: [handlers as ToolHandler] };
  return handlers as HandlerSet;
}

/** The set, checked as the service checks it when it starts (throws `InvalidHandlerSet` naming each problem). */
function argumentChecksOf(set: HandlerSet): ArgumentChecks {
  let checks = checked.get(set);
  if (!checks) {
    checkHandlerSet(set);
    checks = createArgumentChecks(set);
    checked.set(set, checks);
  }
  return checks;
}

/**
 * Calls tool `name` with `args` and runs its first round.
 *
 * @example
 * ```ts
 * const run = await driveTool(handlers, 'approve_refund', { amount: 40 }, { capabilities: { elicitation: {} } });
 * expect(run.ask?.inputRequests.approval?.method).toBe('elicitation/create');
 * const next = await run.answer({ approval: { action: 'accept', content: { ok: true } } });
 * expect(next.result?.content).toEqual([{ type: 'text', text: 'Refunded 40' }]);
 * ```
 */
export function driveTool(
  handlers: Handlers,
  name: string,
  args: Record<string, unknown> = {},
  options: DriveOptions = {},
): Promise<ToolStep> {
  return drive<CallToolResult>(asHandlerSet(handlers), 'tools/call', { name, arguments: args }, options);
}

/** Gets prompt `name` with `args` and runs its first round (see `driveTool`). */
export function drivePrompt(
  handlers: HandlerSet | PromptHandler,
  name: string,
  args: Record<string, string> = {},
  options: DriveOptions = {},
): Promise<PromptStep> {
  const set = 'prompt' in handlers ? { name: 'test', tools: [], prompts: [handlers] } : handlers;
  return drive<GetPromptResult>(set, 'prompts/get', { name, arguments: args }, options);
}

/** Reads resource `uri` (a static resource or one matching a template) and runs its first round (see `driveTool`). */
export function driveResource(handlers: HandlerSet, uri: string, options: DriveOptions = {}): Promise<ResourceStep> {
  return drive<ReadResourceResult>(handlers, 'resources/read', { uri }, options);
}

async function drive<R>(
  set: HandlerSet,
  method: ExchangeMethod,
  params: Record<string, unknown>,
  options: DriveOptions,
): Promise<Step<R>> {
  const checks = argumentChecksOf(set);
  const exchangeId = options.exchangeId ?? randomUUID();
  const refusedAtStart = (error: unknown): Step<R> => {
    if (!(error instanceof RpcError)) throw error;
    return refusal<R>(exchangeId, 1, 0, toJson(error));
  };
  let request: OriginalRequest;
  try {
    request = readOriginalRequest(method, params);
    requireHandler(set, request);
    // A tool's arguments that fail its inputSchema are answered with a result, as the service does.
    const refused = checks.refusal(request);
    if (refused) return ended<R>(exchangeId, 1, 0, { kind: 'complete', result: refused }, []);
  } catch (error) {
    return refusedAtStart(error);
  }
  const exchange = new Exchange(set, request, exchangeId, options);
  return exchange.start<R>();
}
