/**
 * Runs one handler execution and turns whatever it does into a round outcome. A handler that
 * throws does not fail the activity (re-running it would not help): a tool's failure becomes an
 * `isError` result, as MCP asks of tool errors; a prompt's or resource's becomes a JSON-RPC error.
 */
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { ExchangeInput, RoundOutcome } from '../lib/exchange/types';
import { findPrompt, findResource, findTool, type HandlerContext, type HandlerSet } from '../lib/handler-api';
import { INTERNAL_ERROR, INVALID_PARAMS } from '../lib/protocol/json-rpc-codes';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Calls the handler the request names; undefined when this deployment has none. */
function invoke(handlers: HandlerSet, exchange: ExchangeInput, ctx: HandlerContext) {
  const { method, target, params } = exchange.request;
  switch (method) {
    case 'tools/call': {
      const tool = findTool(handlers, target);
      return tool && (() => tool.run((params.arguments ?? {}) as Record<string, unknown>, ctx));
    }
    case 'prompts/get': {
      const prompt = findPrompt(handlers, target);
      return prompt && (() => prompt.run((params.arguments ?? {}) as Record<string, string>, ctx));
    }
    case 'resources/read': {
      const match = findResource(handlers, target);
      if (!match) return undefined;
      return match.kind === 'static'
        ? () => match.handler.read(target, ctx)
        : () => match.handler.read(target, match.variables, ctx);
    }
  }
}

export class HandlerTimeoutError extends Error {
  override readonly name = 'HandlerTimeoutError';
}

/** Settles with the handler, or fails once `timeoutMs` passes (the handler itself cannot be stopped). */
function withinTimeout<T>(run: () => T | Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new HandlerTimeoutError(`the handler did not finish within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  return Promise.race([Promise.resolve().then(run), timeout]).finally(() => clearTimeout(timer));
}

export async function executeHandler(
  handlers: HandlerSet,
  exchange: ExchangeInput,
  ctx: HandlerContext,
  timeoutMs = 90_000,
): Promise<RoundOutcome> {
  const { method, target } = exchange.request;
  const run = invoke(handlers, exchange, ctx);
  if (!run) return { kind: 'error', error: { code: INVALID_PARAMS, message: `No ${method} handler for ${target}` } };
  try {
    const result = (await withinTimeout<unknown>(run, timeoutMs)) as Record<string, unknown>;
    if (isInputRequiredResult(result)) {
      return {
        kind: 'ask',
        inputRequests: { ...(result.inputRequests ?? {}) },
        sealedHandlerState: result.requestState,
      };
    }
    return { kind: 'complete', result };
  } catch (error) {
    ctx.log.warn({ err: error, method, target }, 'handler threw');
    if (error instanceof HandlerTimeoutError)
      return { kind: 'error', error: { code: INTERNAL_ERROR, message: `Handler failed: ${messageOf(error)}` } };
    if (method === 'tools/call') {
      return { kind: 'complete', result: { content: [{ type: 'text', text: messageOf(error) }], isError: true } };
    }
    return { kind: 'error', error: { code: INTERNAL_ERROR, message: messageOf(error) } };
  }
}
