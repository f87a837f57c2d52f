/**
 * Forwards the notifications a round's handler sends (stored by the worker, announced through
 * Postgres) to the client that listens on this leg, as MCP notifications, until told to stop; a
 * last read after the stop makes sure nothing recorded before the outcome is left behind.
 *
 * It never rejects: it runs beside the wait for the round's outcome, where a rejection would go
 * unhandled; a failure (Postgres unreachable, say) is returned for the caller to weigh.
 */
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import type { Listening } from '../../../../lib/exchange/types';
import { toNotification } from '../../../../lib/protocol/notifications';

export async function forwardRoundNotifications(
  waiter: OutcomeWaiter,
  target: { exchangeId: string; round: number },
  listening: Listening,
  send: (notification: Record<string, unknown>, eventId: number) => void | Promise<void>,
  stop: AbortSignal,
  afterEvent = 0,
): Promise<{ lastId: number; failure?: Error }> {
  let lastId = afterEvent;
  const deliver = async (events: Awaited<ReturnType<OutcomeWaiter['nextEvents']>>) => {
    for (const { id, event } of events) {
      lastId = id;
      const notification = toNotification(event, listening.progressToken);
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
