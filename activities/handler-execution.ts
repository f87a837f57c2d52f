/**
 * Runs one handler execution and turns whatever it does into a round outcome. A handler that
 * throws does not fail the activity (re-running it would not help): a tool's failure becomes an
 * `isError` result, as MCP asks of tool errors.
 */
import { isInputRequiredResult } from '@modelcontextprotocol/server';
import type { ExchangeInput, RoundOutcome } from '../lib/exchange/types';
import { findTool, type HandlerContext, type HandlerSet } from '../lib/handler-api';
import { INTERNAL_ERROR, INVALID_PARAMS } from '../lib/protocol/json-rpc-codes';

export async function executeHandler(handlers: HandlerSet, exchange: ExchangeInput, ctx: HandlerContext): Promise<RoundOutcome> {
  const { request } = exchange;
  if (request.method !== 'tools/call') {
    return { kind: 'error', error: { code: INTERNAL_ERROR, message: `${request.method} has no handlers in this deployment` } };
  }
  const handler = findTool(handlers, request.target);
  if (!handler) {
    return { kind: 'error', error: { code: INVALID_PARAMS, message: `Unknown tool: ${request.target}` } };
  }
  try {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const result = (await handler.run(args, ctx)) as Record<string, unknown>;
    if (isInputRequiredResult(result)) {
      return { kind: 'ask', inputRequests: { ...(result.inputRequests ?? {}) }, sealedHandlerState: result.requestState };
    }
    return { kind: 'complete', result };
  } catch (error) {
    ctx.log.warn({ err: error }, 'tool handler threw; returning it as an isError result');
    return { kind: 'complete', result: { content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], isError: true } };
  }
}
