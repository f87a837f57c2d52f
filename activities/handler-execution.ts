/**
 * Runs one handler execution and turns whatever it does into a round outcome. A handler that
 * throws does not fail the activity (re-running it would not help): a tool's failure becomes an
 * `isError` result, as MCP asks of tool errors; a prompt's or resource's becomes a JSON-RPC error, as
 * does a `ProtocolError` any handler throws.
 */
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { ExchangeInput, RoundOutcome } from '../lib/exchange/types';
import { isProtocolError, type HandlerContext, type HandlerSet } from '@durable-mcp/handlers';
import { requireHandler, type BoundHandler } from '../lib/handler-set/lookup';
import { INTERNAL_ERROR } from '../lib/protocol/json-rpc-codes';
import { RpcError } from '../lib/protocol/rpc-error';
import { inSpan } from '../lib/tracing/in-span';
import { defaultValueOf } from '../lib/config';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class HandlerTimeoutError extends Error {
  override readonly name = 'HandlerTimeoutError';
}

/**
 * Settles with the handler, or fails once `timeoutMs` passes. The handler cannot be stopped, but
 * it is told: `expired` aborts then, and the handler's `ctx.signal` with it, so a handler that
 * listens (an upstream call, lib/gateway) stops its work instead of doing it after its round ended.
 */
function withinTimeout<T>(run: () => T | Promise<T>, timeoutMs: number, expired: AbortController): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new HandlerTimeoutError(`the handler did not finish within ${timeoutMs} ms`);
      expired.abort(error);
      reject(error);
    }, timeoutMs);
  });
  return Promise.race([Promise.resolve().then(run), timeout]).finally(() => clearTimeout(timer));
}

/**
 * The handler's run as a span (`handler <target> round <n>`), a child of the round's activity span
 * when traces are on (lib/tracing); a no-op span otherwise.
 */
function tracedHandler(handler: BoundHandler, ctx: HandlerContext, method: string, target: string): Promise<unknown> {
  const attributes = {
    'mcp.method': method,
    'mcp.target': target,
    'mcp.exchange_id': ctx.exchangeId,
    'mcp.round': ctx.round,
  };
  return inSpan(`handler ${target} round ${ctx.round}`, { attributes }, async (span) => {
    const result: unknown = await handler(ctx);
    if (isInputRequiredResult(result)) span.setAttribute('mcp.outcome', 'ask');
    return result;
  });
}

export async function executeHandler(
  handlers: HandlerSet,
  exchange: ExchangeInput,
  ctx: HandlerContext,
  timeoutMs: number = defaultValueOf('HANDLER_TIMEOUT_MS'),
): Promise<RoundOutcome> {
  const { method, target } = exchange.request;
  let handler: BoundHandler;
  try {
    handler = requireHandler(handlers, exchange.request);
  } catch (error) {
    // The API refused unknown targets before starting the exchange: this worker lacks a handler the
    // API has (version skew), or an upstream's tool that its last listing dropped. The exchange
    // ends with the error the API would have answered, at once: no retry would find the handler.
    if (!(error instanceof RpcError)) throw error;
    ctx.log.error(
      { method, target },
      "this worker's handlers lack the exchange's target (it serves another version than the API that started it, or an upstream no longer lists the tool): the exchange ends with the unknown-target error",
    );
    return { kind: 'error', error: error.toJson() };
  }
  try {
    const expired = new AbortController();
    const told = { ...ctx, signal: ctx.signal ? AbortSignal.any([ctx.signal, expired.signal]) : expired.signal };
    const result = (await withinTimeout<unknown>(
      () => tracedHandler(handler, told, method, target),
      timeoutMs,
      expired,
    )) as Record<string, unknown>;
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
    if (isProtocolError(error)) {
      const data = error.data === undefined ? {} : { data: error.data };
      return { kind: 'error', error: { code: error.code, message: error.message, ...data } };
    }
    if (error instanceof HandlerTimeoutError)
      return { kind: 'error', error: { code: INTERNAL_ERROR, message: `Handler failed: ${messageOf(error)}` } };
    if (method === 'tools/call') {
      return { kind: 'complete', result: { content: [{ type: 'text', text: messageOf(error) }], isError: true } };
    }
    return { kind: 'error', error: { code: INTERNAL_ERROR, message: messageOf(error) } };
  }
}
