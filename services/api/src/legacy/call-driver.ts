/**
 * Produces the messages of one handshake-era call onto its stream, from the exchange's recorded
 * rounds: the handler's notifications, a real server-to-client request per key of each ask, and
 * finally the response (after withdrawing, with one `notifications/cancelled` each, any request
 * still open when the exchange ended without them).
 *
 * Producing is idempotent (each message has a key, written once per stream), so it can run
 * wherever the call's stream is being delivered (the POST that made the call, a GET that resumed
 * it, another replica after a restart) and any number of times, and the stream is the same.
 */
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import type { LegacyCall, LegacyStore } from '../../../../lib/db/legacy-store';
import type { Listening } from '../../../../lib/exchange/types';
import type { ExchangeReconciler } from '../exchange-reconciler';
import { forwardRoundNotifications } from '../round-notifications';
import { reverseRequestId } from './reverse-request-id';
import { CLOSE_STREAM_KEY } from './stream-control';

export interface CallDriverDeps {
  legacy: LegacyStore;
  waiter: OutcomeWaiter;
  /** Asked after each wait slice with no outcome, so a workflow Temporal ended still ends the call. */
  reconciler: ExchangeReconciler;
  /** How long one wait for a round lasts before Temporal is asked whether the workflow still runs. */
  waitSliceMs: number;
}


export async function driveCall(deps: CallDriverDeps, call: LegacyCall, listening: Listening, stop: AbortSignal): Promise<void> {
  const { legacy, waiter } = deps;
  const produce = (messageKey: string, message: Record<string, unknown>, final = false) =>
    legacy.appendMessage({ sessionId: call.sessionId, streamId: call.streamId, messageKey, message, final });

  /** The exchange's ending, if Temporal closed its workflow without one and it is this round's. */
  const endedAt = async (round: number) => {
    const ended = await deps.reconciler.reconcile(call.exchangeId);
    return ended && ended.round >= round ? ended : undefined;
  };

  for (let round = 1; !stop.aborted; round++) {
    const stopForwarding = new AbortController();
    const forwarding = forwardRoundNotifications(
      waiter,
      { exchangeId: call.exchangeId, round },
      listening,
      (notification, eventId) => produce(`event:${eventId}`, notification),
      stopForwarding.signal,
      (eventId) => produce(`${CLOSE_STREAM_KEY}${eventId}`, {}),
    );
    let record;
    try {
      while (!record && !stop.aborted) {
        record = await waiter.wait(call.exchangeId, round, deps.waitSliceMs, stop);
        if (!record && !stop.aborted) record = await endedAt(round);
      }
    } finally {
      stopForwarding.abort();
    }
    // A notification that could not be produced would leave a gap in the stream: stop here; the
    // next delivery of this call (a reconnect) runs the producer again from the same point.
    const { failure } = await forwarding;
    if (failure) throw failure;
    if (!record) return;

    const { outcome } = record;
    if (outcome.kind === 'ask') {
      for (const [key, request] of Object.entries(outcome.inputRequests)) {
        const { method, params } = request as { method: string; params?: unknown };
        const id = reverseRequestId(call.exchangeId, round, key);
        const message = { jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) };
        await legacy.openRequest({ id, sessionId: call.sessionId, exchangeId: call.exchangeId, round, key, message }, call.streamId);
      }
      continue;
    }

    const reason = outcome.kind === 'error' ? outcome.error.message : 'The request completed';
    await legacy.withdrawRequests(call.exchangeId, call.streamId, reason);
    const response =
      outcome.kind === 'complete'
        ? { jsonrpc: '2.0', id: call.requestIdJson, result: outcome.result }
        : { jsonrpc: '2.0', id: call.requestIdJson, error: outcome.error };
    await produce(`response:${call.exchangeId}`, response, true);
    await legacy.finishCall(call.exchangeId);
    return;
  }
}
