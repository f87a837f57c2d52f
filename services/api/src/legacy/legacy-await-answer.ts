/**
 * Waiting again, in a handshake-era session, for a call answered with the pending result
 * (pending-call.ts): `await_answer` with the handle it gave, or the same call again when it joined
 * that call's exchange (request-intake.ts). Only the principal that made the call may wait on it:
 * any other handle, and an unknown one, get the same refusal (catalog/await-answer-tool.ts).
 *
 * - A call that ended answers with its own result (or its error) at once.
 * - A call of this session answered pending that still runs answers on a stream, as a running
 *   task's tasks/result does: its requests still open (but those its client had before it was
 *   answered pending, whose answers may still come), then its stream from now on, ending with its
 *   response re-addressed to this request, or with the pending result again when it still waits
 *   LEGACY_PENDING_AFTER_MS later (or the process stops). Answers come back through the response
 *   intake as for any call. No other connection delivers such a call, so nothing goes out twice.
 * - Any other call (still delivered on its own stream, another session's, one on the 2026-07-28
 *   wire) answers with its outcome if it is recorded within that wait (an ending Temporal left
 *   unrecorded is reconciled then), and with the pending result if not.
 *
 * A call that runs as a task is awaited with tasks/result: its handle is refused here.
 */
import type { ExchangeStore } from '../../../../lib/db/exchange-store';
import type { LegacySession, LegacyStore } from '../../../../lib/db/legacy-store';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import type { TaskStore } from '../../../../lib/db/task-store';
import type { ExchangeReconciler } from '../../../../lib/exchange-client/exchange-reconciler';
import type { RoundRecord } from '../../../../lib/exchange/types';
import { fromOutcome } from '../../../../lib/protocol/error-catalog';
import { pendingResult } from '../../../../lib/questions/pending-result';
import { handleOf, unknownHandle } from '../catalog/await-answer-tool';
import type { WaitingOn } from '../exchange-legs/waiting-on';
import type { TaskMethodAnswer } from './legacy-task-methods';
import type { PendingCall } from './pending-call';

type TaskStream = Extract<TaskMethodAnswer, { kind: 'task-stream' }>;

/** What the pending result of a call says besides its handle, and when it is sent (pending-call.ts). */
export type CallPending = Omit<PendingCall, 'respondTo'>;

/** What waiting again answers: the call's outcome (or the pending result) now, or its stream. */
export type AwaitedCall =
  | { kind: 'result'; result: Record<string, unknown> }
  /** The call's stream as a running task's tasks/result has it (from `afterId`, its open requests first). */
  | ({ kind: 'await-stream'; pending: CallPending } & Pick<TaskStream, 'call' | 'afterId' | 'openRequests'>);

export interface LegacyAwaitDeps {
  exchanges: Pick<ExchangeStore, 'readCall' | 'lastRound'>;
  tasks: Pick<TaskStore, 'readOfExchange'>;
  reconciler: Pick<ExchangeReconciler, 'reconcile'>;
  legacy: Pick<LegacyStore, 'callOfExchange' | 'lastEventId' | 'openRequestsOfSession'>;
  waiter: Pick<OutcomeWaiter, 'wait'>;
  waitingOn: WaitingOn;
  /** LEGACY_PENDING_AFTER_MS: how long one wait lasts. */
  pendingAfterMs: number;
  /** Whether identical calls of `tool` join a running one (the pending result says so). */
  repeatReattaches: (tool: string) => boolean;
}

/** The outcome of an ended call, as its request's answer; undefined while it runs. */
function endingOf(last: RoundRecord | undefined): AwaitedCall | undefined {
  const outcome = last?.outcome;
  if (outcome?.kind === 'complete') return { kind: 'result', result: outcome.result };
  if (outcome?.kind === 'error') throw fromOutcome(outcome.error);
  return undefined;
}

export function createLegacyAwait(deps: LegacyAwaitDeps) {
  const { exchanges, legacy, waiter, pendingAfterMs } = deps;

  /** The outcome of a call this session's stream does not carry, if recorded within one wait. */
  async function outcomeWithin(exchangeId: string, pending: CallPending): Promise<AwaitedCall> {
    let last = await exchanges.lastRound(exchangeId);
    const until = Date.now() + pendingAfterMs;
    while (last?.outcome.kind !== 'complete' && last?.outcome.kind !== 'error') {
      const left = until - Date.now();
      const next = left > 0 ? await waiter.wait(exchangeId, (last?.round ?? 0) + 1, left) : undefined;
      if (!next) break;
      last = next;
    }
    // Nothing within a whole wait: a workflow may have ended without recording it.
    if (!endingOf(last)) last = (await deps.reconciler.reconcile(exchangeId).catch(() => undefined)) ?? last;
    const ended = endingOf(last);
    if (ended) return ended;
    const { tool, repeatReattaches } = pending;
    return {
      kind: 'result',
      result: pendingResult({ tool, handle: exchangeId, on: await deps.waitingOn(exchangeId), repeatReattaches }),
    };
  }

  /** Waits again for `exchangeId`, a `tools/call` of `tool` by this session's principal. */
  async function awaitExchange(session: LegacySession, exchangeId: string, tool: string): Promise<AwaitedCall> {
    const pending: CallPending = { afterMs: pendingAfterMs, tool, repeatReattaches: deps.repeatReattaches(tool) };
    const call = await legacy.callOfExchange(exchangeId);
    if (call?.sessionId !== session.id || call.detachedThrough === undefined) return outcomeWithin(exchangeId, pending);
    // The cursor is read before the outcome, so an ending recorded after it is on the stream from
    // there, and one recorded before it is read now: nothing falls in between.
    const afterId = await legacy.lastEventId(call.streamId);
    const ended = endingOf(await exchanges.lastRound(exchangeId));
    if (ended) return ended;
    // Requests written after the cursor come with the stream; those before it are sent first, but
    // not those the client has had since before it was answered pending (its form may still be open).
    const delivered = call.detachedThrough;
    const openRequests = (await legacy.openRequestsOfSession(session.id)).filter(
      (request) =>
        request.exchangeId === exchangeId && (request.eventId ?? 0) <= afterId && (request.eventId ?? 0) > delivered,
    );
    return { kind: 'await-stream', call, afterId, openRequests, pending };
  }

  return {
    awaitExchange,
    /** `await_answer` of `principal`, with these arguments. */
    async awaitHandle(session: LegacySession, principal: string, args: unknown): Promise<AwaitedCall> {
      const handle = handleOf(args);
      const call = await exchanges.readCall(handle);
      if (!call || call.principal !== principal || call.method !== 'tools/call') throw unknownHandle();
      if (await deps.tasks.readOfExchange(handle)) throw unknownHandle();
      return awaitExchange(session, handle, call.target);
    },
  };
}

export type LegacyAwait = ReturnType<typeof createLegacyAwait>;
