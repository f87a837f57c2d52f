/**
 * `await_answer`: the built-in tool a pending call's result names (lib/questions/pending-result.ts).
 * Called with the handle it gave, it joins that call's exchange as the call itself would: it waits
 * again, and returns the call's own result once there is one (an ask of the caller's client, if
 * the call has one, is sent for this client to answer). Served on the 2026-07-28 wire, beside the
 * handler set's tools, unless one of them has the same name. Only the principal that made the call
 * may wait on it: any other handle, and an unknown one, get the same refusal.
 */
import type { HandlerSet } from '@durable-mcp/handlers';
import type { Tool } from '@modelcontextprotocol/server';
import { findTool } from '../../../../lib/handler-set/lookup';
import { invalidParams } from '../../../../lib/protocol/error-catalog';
import { AWAIT_ANSWER_TOOL } from '../../../../lib/questions/pending-result';
import { UUID } from '../../../../lib/exchange/uuid';

export const AWAIT_ANSWER: Tool = {
  name: AWAIT_ANSWER_TOOL,
  title: 'Await a pending answer',
  description:
    'Waits for the outcome of an earlier tool call that returned "still pending" (it was waiting for a ' +
    "person's answer), and returns that call's result once it is there. Pass the handle the pending " +
    'notice gave. If it is still pending, you get the notice again: tell the user, and call this again later.',
  inputSchema: {
    type: 'object',
    properties: { handle: { type: 'string', description: 'The handle from the pending notice.' } },
    required: ['handle'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
};

/**
 * Whether the built-in tool is served now: the set has tools, none of them of that name. Asked at
 * each request, since a gateway's tools come and go with its upstreams' listings.
 */
export const servesAwaitAnswer = (handlers: HandlerSet): boolean =>
  handlers.tools.length > 0 && !findTool(handlers, AWAIT_ANSWER_TOOL);

/** The refusal of a handle that names no call of this caller's (the same whether it exists or not). */
export const unknownHandle = () =>
  invalidParams('Invalid params: params.arguments.handle names no pending call of yours', {
    path: 'params.arguments.handle',
  });

/** The exchange id an `await_answer` call's arguments name, or the refusal. */
export function handleOf(args: unknown): string {
  const handle = (args as { handle?: unknown } | undefined)?.handle;
  if (typeof handle !== 'string' || !UUID.test(handle)) throw unknownHandle();
  return handle;
}
