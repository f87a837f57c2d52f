/**
 * A handshake-era call whose wait outlasts its client's patience (LEGACY_PENDING_AFTER_MS, under
 * the TypeScript clients' 60 s request timeout, past which they cancel the call and so withdraw
 * its question): its stream's delivery stops, the call is detached (legacy-store.ts `detachCall`),
 * and its client is sent the pending result (lib/questions/pending-result.ts) as the call's
 * response (counted from the call's start on a stream it resumed; and, for a stream its client
 * cannot resume, also when the process stops first). The exchange runs on; `await_answer`, or the
 * same call again, delivers its outcome (legacy-await-answer.ts). A response recorded before the detach wins: the delivery goes on and
 * writes it. Either way the request gets exactly one response: the delivery has stopped before
 * the detach, so it cannot have written one the detach did not see.
 */
import { pendingResult, type PendingOn } from '../../../../lib/questions/pending-result';
import type { WaitingOn } from '../exchange-legs/waiting-on';
import { eitherSignal } from '../http/shutdown';
import type { SseWriter } from './sse-writer';
import type { DeliveryEnd } from './stream-delivery';

/** A delivery that answers with the pending result when the call still waits `afterMs` after it began. */
export interface PendingCall {
  afterMs: number;
  /** The tool the call called, as the result names it. */
  tool: string;
  /** Whether the same call again comes back to this one (the tool reattaches identical calls). */
  repeatReattaches: boolean;
  /** The request the result answers: the call itself, or an `await_answer` of it. */
  respondTo: string | number;
  /**
   * Answer pending, too, when the process stops (the delivery is drained) before the call ends:
   * for a stream its client cannot resume (an await's, or an older client's call), which would
   * otherwise end without a response.
   */
  onDrain?: boolean;
}

export interface PendingCallDeps {
  detach: (exchangeId: string, deliveredThrough: number) => Promise<boolean>;
  waitingOn: WaitingOn;
}

/** Said when what the call waits on cannot be read (the response must go out all the same). */
const UNREAD: PendingOn = { waitingFor: 'Waiting for an answer' };

/**
 * Runs `deliver` (the call's stream after `afterId`) until it ends or `pending.afterMs` passes;
 * then, if the call can still be detached, writes the pending result and ends 'final'; if not
 * (its response is recorded), goes on delivering from where it stopped.
 */
export async function deliverUntilPending(
  deps: PendingCallDeps,
  exchangeId: string,
  deliver: (afterId: number, stop: AbortSignal) => Promise<DeliveryEnd>,
  afterId: number,
  sse: SseWriter,
  stop: AbortSignal,
  pending: PendingCall,
): Promise<DeliveryEnd> {
  const due = new AbortController();
  const timer = setTimeout(() => due.abort(), pending.afterMs);
  const either = eitherSignal(stop, due.signal);
  let drained = false;
  try {
    const end = await deliver(afterId, either.signal);
    const fellDue = end === 'stopped' && due.signal.aborted && !stop.aborted;
    drained = end === 'drained' && pending.onDrain === true;
    if ((!fellDue && !drained) || sse.closed) return end;
  } finally {
    clearTimeout(timer);
    either.dispose();
  }
  // What this delivery wrote is with the client: an await does not send it again. (Requests it
  // re-sent first have ids below `afterId`; the stream it followed starts after it.)
  const through = Math.max(afterId, sse.lastEventId ?? 0);
  if (!(await deps.detach(exchangeId, through))) return deliver(through, stop);
  const on = await deps.waitingOn(exchangeId, !drained).catch(() => UNREAD);
  const { tool, repeatReattaches, respondTo } = pending;
  sse.write({
    jsonrpc: '2.0',
    id: respondTo,
    result: pendingResult({ tool, handle: exchangeId, on, repeatReattaches }),
  });
  return 'final';
}
