/**
 * Forwards the notifications a round's handler sends (stored by the worker, announced through
 * Postgres) to the client that listens on this leg, as MCP notifications, until told to stop; a
 * last read after the stop makes sure nothing recorded before the outcome is left behind.
 *
 * It never rejects: it runs beside the wait for the round's outcome, where a rejection would go
 * unhandled; a failure (Postgres unreachable, say) is returned for the caller to weigh.
 */
import type { OutcomeWaiter } from '../../../lib/db/outcome-waiter';
import type { ExchangeEvent, Listening } from '../../../lib/exchange/types';
import { passesLogLevel } from '../../../lib/protocol/log-levels';

export function toNotification(event: ExchangeEvent, listening: Listening): Record<string, unknown> | undefined {
  if (event.kind === 'close-stream') return undefined;
  if (event.kind === 'progress') {
    if (listening.progressToken === undefined) return undefined;
    const { progress, total, message } = event;
    return {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: listening.progressToken, progress, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) },
    };
  }
  if (!passesLogLevel(event.level, listening.logLevel)) return undefined;
  return {
    jsonrpc: '2.0',
    method: 'notifications/message',
    params: { level: event.level, data: event.data, ...(event.logger ? { logger: event.logger } : {}) },
  };
}

export async function forwardRoundNotifications(
  waiter: OutcomeWaiter,
  target: { exchangeId: string; round: number },
  listening: Listening,
  send: (notification: Record<string, unknown>, eventId: number) => void | Promise<void>,
  stop: AbortSignal,
  onCloseStream?: (eventId: number) => void | Promise<void>,
  afterEvent = 0,
): Promise<{ lastId: number; failure?: Error }> {
  let lastId = afterEvent;
  const deliver = async (events: Awaited<ReturnType<OutcomeWaiter['nextEvents']>>) => {
    for (const { id, event } of events) {
      lastId = id;
      if (event.kind === 'close-stream') await onCloseStream?.(id);
      const notification = toNotification(event, listening);
      if (notification) await send(notification, id);
    }
  };
  try {
    while (!stop.aborted) {
      await deliver(await waiter.nextEvents(target.exchangeId, target.round, lastId, 60_000, stop));
    }
    await deliver(await waiter.nextEvents(target.exchangeId, target.round, lastId, 0));
    return { lastId };
  } catch (error) {
    return { lastId, failure: error instanceof Error ? error : new Error(String(error)) };
  }
}
