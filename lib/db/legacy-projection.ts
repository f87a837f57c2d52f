/**
 * Writes what a handshake-era client must see of an exchange into its call's stream, in the
 * transaction that records it: for an ask, one server-to-client request per key; for an ending, one
 * `notifications/cancelled` per request still open, then the call's response; for a handler's
 * notification, the MCP notification its client listens for. Whoever records (the worker, or the API
 * recording an ending Temporal left unrecorded) projects, so a stream is complete the moment its
 * round is recorded, whether or not a client is connected; API replicas only deliver the rows.
 * Exchanges with no handshake-era call (the modern era) project nothing. A call that runs as a
 * task (2025-11-25 `params.task`) names its task in each request's related-task `_meta`, so the
 * client knows which task asks, on whichever stream the request reaches it.
 */
import type { PoolClient } from 'pg';
import type { ExchangeEvent, RoundOutcome } from '../exchange/types';
import { RELATED_TASK_META_KEY } from '../protocol/legacy-tasks';
import { streamKeys } from '../protocol/legacy-stream-keys';
import { toNotification } from '../protocol/notifications';
import { reverseRequestId } from '../protocol/reverse-request-id';
import type { NewStreamMessage } from './legacy-store';
import { appendStreamMessage } from './legacy-stream-pg';

interface CallRow {
  session_id: string;
  stream_id: string;
  request_id_json: string | number;
  progress_token: string | number | null;
  /** Set when the call runs as a task. */
  task_id: string | null;
}

/** A server-to-client request's params, with its task named in `_meta` when the call is a task. */
function requestParams(params: unknown, taskId: string | null): unknown {
  if (taskId === null) return params;
  const own = (params ?? {}) as { _meta?: Record<string, unknown> };
  return { ...own, _meta: { ...own._meta, [RELATED_TASK_META_KEY]: { taskId } } };
}

async function callOf(client: PoolClient, exchangeId: string): Promise<CallRow | undefined> {
  const { rows } = await client.query<CallRow>({
    text: `SELECT c.session_id, c.stream_id, c.request_id_json, c.progress_token, t.task_id
             FROM legacy_calls c LEFT JOIN exchange_tasks t ON t.exchange_id = c.exchange_id
            WHERE c.exchange_id = $1`,
    values: [exchangeId],
  });
  return rows[0];
}

export async function projectRound(
  client: PoolClient,
  entry: { exchangeId: string; round: number; outcome: RoundOutcome },
  maxEvents: number,
): Promise<void> {
  const { exchangeId, round, outcome } = entry;
  const call = await callOf(client, exchangeId);
  if (!call) return;
  const write = (
    messageKey: string,
    message: Record<string, unknown>,
    extra: Pick<NewStreamMessage, 'final' | 'serverRequestId'> = {},
  ) =>
    appendStreamMessage(
      client,
      { sessionId: call.session_id, streamId: call.stream_id, messageKey, message, ...extra },
      maxEvents,
    );

  if (outcome.kind === 'ask') {
    for (const [key, request] of Object.entries(outcome.inputRequests)) {
      const { method } = request as { method: string };
      const params = requestParams((request as { params?: unknown }).params, call.task_id);
      const id = reverseRequestId(exchangeId, round, key);
      const message = { jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) };
      await client.query({
        text: `INSERT INTO legacy_open_requests (id, session_id, exchange_id, round, key, message)
               VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
        values: [id, call.session_id, exchangeId, round, key, JSON.stringify(message)],
      });
      await write(streamKeys.request(id), message, { serverRequestId: id });
    }
    return;
  }

  // The exchange ended: what is still open is withdrawn, exactly once, before the response.
  const reason = outcome.kind === 'error' ? outcome.error.message : 'The request completed';
  const { rows } = await client.query<{ id: string }>({
    text: `UPDATE legacy_open_requests SET status = 'withdrawn', settled_at = now()
           WHERE exchange_id = $1 AND status = 'open' RETURNING id`,
    values: [exchangeId],
  });
  for (const { id } of rows) {
    await write(streamKeys.withdrawal(id), {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: id, reason },
    });
  }
  const response =
    outcome.kind === 'complete'
      ? { jsonrpc: '2.0', id: call.request_id_json, result: outcome.result }
      : { jsonrpc: '2.0', id: call.request_id_json, error: outcome.error };
  await write(streamKeys.response(exchangeId), response, { final: true });
  await client.query({
    text: 'UPDATE legacy_calls SET finished_at = now() WHERE exchange_id = $1 AND finished_at IS NULL',
    values: [exchangeId],
  });
}

export async function projectEvent(
  client: PoolClient,
  exchangeId: string,
  eventId: number,
  event: ExchangeEvent,
  maxEvents: number,
): Promise<void> {
  const call = await callOf(client, exchangeId);
  if (!call) return;
  const write = (messageKey: string, message: Record<string, unknown>) =>
    appendStreamMessage(
      client,
      { sessionId: call.session_id, streamId: call.stream_id, messageKey, message },
      maxEvents,
    );
  if (event.kind === 'close-stream') return write(streamKeys.closeStream(eventId), {});
  const notification = toNotification(event, call.progress_token ?? undefined);
  if (notification) await write(streamKeys.notification(eventId), notification);
}
