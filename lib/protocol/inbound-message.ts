/**
 * Reads one inbound JSON-RPC message (a request, a notification, or a response to one of our
 * server-to-client requests) and checks its envelope against the official SDK's schemas
 * (`@modelcontextprotocol/core`), the one source of the wire's shapes, before either era acts on it:
 *
 * - not JSON                                  → -32700
 * - not one object (a batch, a bare value)    → -32600
 * - an envelope the SDK refuses (`jsonrpc`, `id`, `method`, `result`, `error`, an unknown
 *   top-level field)                          → -32600, `data.path` naming the field
 * - `params` the SDK refuses (not an object, a mistyped `_meta.progressToken`) → -32602, `data.path`
 * - a string `id` over the budget             → -32600, `data.path` `id`
 * - too deep, or a string Postgres cannot store → -32602, `data.path` (json-budget.ts)
 *
 * Each refusal carries the request id when one was readable (`error.id`), so the reply echoes it.
 * The message is passed on as the client sent it, not as the schema parsed it: answers are carried,
 * never rewritten.
 */
import {
  JSONRPCErrorResponseSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
} from '@modelcontextprotocol/core';
import type { z } from 'zod';
import { invalidMessage, invalidParams, notOneObject, parseError, requestIdTooLong } from './error-catalog';
import { childPath, findJsonBudgetViolation } from './json-budget';
import type { JsonRpcId } from './json-rpc-envelope';
import type { RpcError } from './rpc-error';

/** The shape budget every inbound message is checked against before either era reads it. */
export interface MessageBudget {
  maxJsonDepth: number;
  maxRequestIdLength: number;
}

/** A request (`method` and `id`), a notification (`method` only) or a response (`result` or `error`). */
export interface InboundMessage {
  id?: string | number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** The SDK schema the message claims to follow, told by the fields it has. */
function schemaFor(message: Record<string, unknown>): z.ZodType {
  if ('method' in message) return 'id' in message ? JSONRPCRequestSchema : JSONRPCNotificationSchema;
  return 'error' in message ? JSONRPCErrorResponseSchema : JSONRPCResultResponseSchema;
}

/** The field an SDK issue names, as a path (`params._meta.progressToken`, an unknown key itself). */
function pathOf(issue: z.core.$ZodIssue): string {
  const keys: Array<string | number> = issue.path.map((key) => (typeof key === 'number' ? key : String(key)));
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) keys.push(issue.keys[0]);
  return keys.reduce<string>((path, key) => childPath(path, key), '');
}

const withId = (error: RpcError, id: JsonRpcId) => Object.assign(error, { id });

export function readInboundMessage(text: string, budget: MessageBudget): InboundMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw parseError();
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw notOneObject();
  const message = parsed as Record<string, unknown>;
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;

  const checked = schemaFor(message).safeParse(message);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    const path = pathOf(issue);
    throw withId(
      path === 'params' || path.startsWith('params.') || path.startsWith('params[')
        ? invalidParams(`Invalid params: ${path}: ${issue.message}`, { path })
        : invalidMessage(path, issue.message),
      id,
    );
  }
  if (typeof message.id === 'string' && message.id.length > budget.maxRequestIdLength) {
    throw requestIdTooLong(budget.maxRequestIdLength);
  }
  const violation = findJsonBudgetViolation(message, budget.maxJsonDepth);
  if (violation) throw withId(violation, id);
  return message as InboundMessage;
}
