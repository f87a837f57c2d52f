/**
 * Delivers one call's stream on one connection, holding the call's delivery lease for that
 * connection meanwhile (lease-hold.ts), so a plain GET stream knows the call is taken; a delivery
 * whose lease another connection took over (the client resumed elsewhere) stops. When the delivery
 * ends, so does the hold (`leaseAfter`): a client that went away frees the call at once for any
 * replica's GET stream; a stream the server ended for the client to resume keeps it for that
 * resumption, briefly. Only a process that died holds it until it lapses. While it delivers, it
 * asks Temporal now and then about a workflow that may have ended without recording it
 * (ending-watch.ts), and reminds a host whose call waits on a person that it still waits
 * (person-wait-progress.ts). A call that waits past its client's patience is answered with the
 * pending result instead (pending-call.ts). The worker writes the stream; this only reads it.
 */
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import type { ExchangeStore } from '../../../../lib/db/exchange-store';
import { DELIVERY_LEASE_MS, type LegacyCall, type LegacyStore } from '../../../../lib/db/legacy-store';
import type { ExchangeReconciler } from '../../../../lib/exchange-client/exchange-reconciler';
import { watchEndings } from './ending-watch';
import { holdLease } from './lease-hold';
import { deliverUntilPending, type PendingCall } from './pending-call';
import { remindWhilePeopleAnswer } from './person-wait-progress';
import type { WaitingOn } from '../exchange-legs/waiting-on';
import type { SseWriter } from './sse-writer';
import { deliverStream, RECONNECT_RETRY_MS, type DeliveryEnd, type DeliveryOptions } from './stream-delivery';

export interface CallDeliveryDeps {
  legacy: LegacyStore;
  /** Whether a question a call waits on is answered (its round after is recorded), for its reminders. */
  exchanges: Pick<ExchangeStore, 'readRound'>;
  waiter: OutcomeWaiter;
  reconciler: ExchangeReconciler;
  /** How often (HTTP_WAIT_MS) a delivered call is checked with Temporal for an ending it did not record. */
  endingCheckMs: number;
  /**
   * How often (QUESTION_PROGRESS_EVERY_MS) a call with a request open to a person is reminded
   * that it waits (person-wait-progress.ts); never when absent.
   */
  personWaitEveryMs?: number;
  /** What a call answered with the pending result waits on (pending-call.ts). */
  waitingOn: WaitingOn;
}

export interface CallDeliveryOptions extends DeliveryOptions {
  /** The connection delivering, as the holder of the call's delivery lease. */
  owner: string;
  /** Take the lease even from another live connection (the client re-attached or resumed here). */
  takeOver?: boolean;
  /**
   * Go on delivering when another connection takes the lease over: a task's `tasks/result`
   * streams, any number of which the client may hold open at once, each to its end.
   */
  shared?: boolean;
  /** Answer with the pending result if the call still waits this long (pending-call.ts). */
  pending?: PendingCall;
}

/**
 * How long a call stream the server ended on purpose (a handler's close request, or the process
 * stopping) keeps its lease for the client's resumption by Last-Event-ID: ten times the `retry`
 * it was told. A GET stream claiming it sooner would send the client its requests twice.
 */
export const RESUME_GRACE_MS = 10 * RECONNECT_RETRY_MS;

/**
 * What becomes of a call's delivery lease when its delivery ends: given up when the client went
 * away (its GET takes the call over at once) or the call ended; kept for RESUME_GRACE_MS when the
 * server ended the stream and told the client to resume it.
 */
export function leaseAfter(end: DeliveryEnd): 'release' | 'hold-for-resume' {
  return end === 'closed' || end === 'drained' ? 'hold-for-resume' : 'release';
}

export function createCallDelivery(deps: CallDeliveryDeps) {
  const { legacy, exchanges, waiter, reconciler, endingCheckMs, personWaitEveryMs } = deps;
  const pendingDeps = {
    detach: (exchangeId: string, through: number) => legacy.detachCall(exchangeId, through),
    waitingOn: deps.waitingOn,
  };

  /** Delivers `call`'s stream after `afterId` on `sse` until it ends or `stop` aborts. */
  return async function deliverCall(
    call: LegacyCall,
    sse: SseWriter,
    afterId: number,
    stop: AbortSignal,
    options: CallDeliveryOptions,
  ): Promise<DeliveryEnd> {
    const local = new AbortController();
    const stopLocal = () => local.abort();
    stop.addEventListener('abort', stopLocal, { once: true });
    await legacy.renewLease(call.exchangeId, options.owner, DELIVERY_LEASE_MS, options.takeOver).catch(() => false);
    const holding = new AbortController();
    const held = holdLease({ legacy, waiter }, call.exchangeId, options.owner, holding.signal).then((hold) => {
      if (hold === 'lost' && !options.shared) local.abort();
    });
    watchEndings(reconciler, async () => [call.exchangeId], endingCheckMs, local.signal);
    const writer =
      personWaitEveryMs === undefined
        ? sse
        : remindWhilePeopleAnswer({ legacy, exchanges }, call.sessionId, sse, personWaitEveryMs, local.signal);
    let end: DeliveryEnd = 'stopped'; // a delivery that failed frees its call like a client that left
    try {
      const deliver = (after: number, signal: AbortSignal) =>
        deliverStream({ legacy, waiter }, call.streamId, after, writer, signal, options);
      end = options.pending
        ? await deliverUntilPending(
            pendingDeps,
            call.exchangeId,
            deliver,
            afterId,
            writer,
            local.signal,
            options.pending,
          )
        : await deliver(afterId, local.signal);
      return end;
    } finally {
      holding.abort();
      await held; // no renewal of the hold may land after what follows
      const done =
        leaseAfter(end) === 'release'
          ? legacy.releaseLease(call.exchangeId, options.owner)
          : legacy.renewLease(call.exchangeId, options.owner, RESUME_GRACE_MS);
      await done.catch(() => undefined);
      stop.removeEventListener('abort', stopLocal);
      local.abort();
    }
  };
}

export type DeliverCall = ReturnType<typeof createCallDelivery>;
