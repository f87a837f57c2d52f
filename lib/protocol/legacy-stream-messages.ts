/**
 * What a legacy call's stream carries of its exchange, as JSON-RPC messages under the keys
 * they are written with (legacy-stream-keys.ts): for an ask, one server-to-client request per key
 * (its task named in the related-task `_meta` when the call runs as a task); for an ending, one
 * `notifications/cancelled` per request it withdraws, then the call's response; for a handler's
 * notification, the MCP notification its client listens for (or a request to close the stream).
 * Pure: the projection (lib/db/legacy-projection.ts) builds them here and stores them in the
 * transaction that records the round.
 */
import type { ExchangeEvent, RoundOutcome } from '../exchange/types';
import { RELATED_TASK_META_KEY } from './legacy-tasks';
import { streamKeys } from './legacy-stream-keys';
import { toNotification } from './notifications';
import { reverseRequestId } from './reverse-request-id';

/** What of a call its stream's messages name. */
export interface StreamCall {
  /** The originating request's id as the client sent it, for the response. */
  requestIdJson: string | number;
  progressToken?: string | number;
  /** Set when the call runs as a task (2025-11-25 `params.task`). */
  taskId?: string;
}

/** One entry of a stream: a message under its idempotency key. */
export interface StreamEntry {
  messageKey: string;
  message: Record<string, unknown>;
  /** The call's response: the stream's last message. */
  final?: true;
  /** The server-to-client request the message is, if it is one. */
  serverRequestId?: string;
}

/** A server-to-client request made from one key of an ask. */
export interface AskRequestEntry extends StreamEntry {
  key: string;
  serverRequestId: string;
}

/** A server-to-client request's params, with its task named in `_meta` when the call is a task. */
function requestParams(params: unknown, taskId: string | undefined): unknown {
  if (taskId === undefined) return params;
  const own = (params ?? {}) as { _meta?: Record<string, unknown> };
  return { ...own, _meta: { ...own._meta, [RELATED_TASK_META_KEY]: { taskId } } };
}

/** An ask's server-to-client requests, one per key, in the ask's order. */
export function askRequestEntries(
  call: StreamCall,
  exchangeId: string,
  round: number,
  ask: Extract<RoundOutcome, { kind: 'ask' }>,
): AskRequestEntry[] {
  return Object.entries(ask.inputRequests).map(([key, request]) => {
    const { method } = request as { method: string };
    const params = requestParams((request as { params?: unknown }).params, call.taskId);
    const id = reverseRequestId(exchangeId, round, key);
    const message = { jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) };
    return { key, messageKey: streamKeys.request(id), message, serverRequestId: id };
  });
}

/**
 * What an ask addressed to someone else puts on the caller's stream: no request (the caller has
 * nothing to answer), but a progress notification saying who the call waits for, when the call
 * sent a progress token; its `progress` is the round, so later waits count up.
 */
export function questionWaitEntries(
  call: StreamCall,
  exchangeId: string,
  round: number,
  message: string,
): StreamEntry[] {
  if (call.progressToken === undefined) return [];
  return [
    {
      messageKey: streamKeys.questionWait(exchangeId, round),
      message: {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: call.progressToken, progress: round, message },
      },
    },
  ];
}

/**
 * What tells a 2025-11-25 client that a URL-mode elicitation it was sent (a question addressed to
 * the caller, answered on its page) is complete: `notifications/elicitation/complete` naming it.
 */
export function elicitationCompleteEntry(elicitationId: string): StreamEntry {
  return {
    messageKey: streamKeys.elicitationComplete(elicitationId),
    message: { jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId } },
  };
}

/**
 * An ending's entries: one `notifications/cancelled` for each request it withdraws (`withdrawnIds`,
 * exactly once each), then the call's response, the stream's final message.
 */
export function endingEntries(
  call: StreamCall,
  exchangeId: string,
  ending: Exclude<RoundOutcome, { kind: 'ask' }>,
  withdrawnIds: readonly string[],
): StreamEntry[] {
  const reason = ending.kind === 'error' ? ending.error.message : 'The request completed';
  const withdrawals = withdrawnIds.map((id) => ({
    messageKey: streamKeys.withdrawal(id),
    message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } },
  }));
  const response =
    ending.kind === 'complete'
      ? { jsonrpc: '2.0', id: call.requestIdJson, result: ending.result }
      : { jsonrpc: '2.0', id: call.requestIdJson, error: ending.error };
  return [...withdrawals, { messageKey: streamKeys.response(exchangeId), message: response, final: true }];
}

/**
 * A handler's notification (`eventId`, its id in the exchange's events) as its stream's entry: the
 * MCP notification, or an empty control entry asking to close the stream; none for a progress
 * event the call cannot show (it sent no progress token).
 */
export function eventEntry(call: StreamCall, eventId: number, event: ExchangeEvent): StreamEntry | undefined {
  if (event.kind === 'close-stream') return { messageKey: streamKeys.closeStream(eventId), message: {} };
  const notification = toNotification(event, call.progressToken);
  return notification && { messageKey: streamKeys.notification(eventId), message: notification };
}
