/**
 * The GET /mcp stream of a Streamable HTTP session. With a `Last-Event-ID` that belongs to one of
 * the session's streams, it resumes that stream: replays what the client missed after that id and,
 * while the stream's call still runs, takes its delivery over and finishes it here. Without one, it
 * is the session's standing stream: it claims the delivery lease of the session's running calls
 * that no connection delivers, re-delivers their still-open requests and follows their later ones;
 * responses never go on it. It claims again the moment a connection gives a call of the session up
 * (a call stream that closed), and when a lease held elsewhere lapses (a process that died). When
 * the process stops (`drain`), it writes what its calls have recorded and returns 'drained', for
 * the caller to tell the client to reconnect elsewhere.
 */
import { randomUUID } from 'node:crypto';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import {
  DELIVERY_FREED_CHANNEL,
  DELIVERY_LEASE_MS,
  type LegacyCall,
  type LegacySession,
  type LegacyStore,
  type OpenRequest,
} from '../../../../lib/db/legacy-store';
import type { Logger } from '../../../../lib/log';
import type { DeliverCall } from './call-delivery';
import type { PendingCall } from './pending-call';
import { callLogger } from './call-log';
import { supportsResumption } from './sessions';
import type { SseWriter } from './sse-writer';
import { deliverStream, type DeliveryEnd } from './stream-delivery';
import { eitherSignal } from '../http/shutdown';

export interface GetStreamDeps {
  legacy: LegacyStore;
  waiter: OutcomeWaiter;
  deliverCall: DeliverCall;
  log: Logger;
  /** What a resumed call is answered pending with, when its wait outlasts its client (legacy-methods.ts `pendingOfCall`). */
  pendingOf: (session: LegacySession, call: LegacyCall) => Promise<PendingCall | undefined>;
}

/** The event id a `Last-Event-ID` header names, if it names one (an integer). */
export function parseLastEventId(header: string | undefined): number | undefined {
  const eventId = Number(header ?? NaN);
  return Number.isInteger(eventId) ? eventId : undefined;
}

/** Of the calls a claim returned, those this stream does not deliver already. */
export function newlyClaimed(claimed: ReadonlyArray<LegacyCall>, serving: ReadonlySet<string>): LegacyCall[] {
  return claimed.filter((call) => !serving.has(call.exchangeId));
}

/** A call this stream took over, and the last event of its stream when it did (its delivery follows after it). */
export interface TakenOver {
  exchangeId: string;
  afterId: number;
}

/**
 * The session's open requests to re-deliver for the calls taken over, in the order they are listed:
 * those written up to the call's cursor. One written after it is delivered by following its stream,
 * so it is sent once, and none falls between the two reads.
 */
export function redeliveries<R extends Pick<OpenRequest, 'exchangeId'> & { eventId?: number }>(
  openRequests: ReadonlyArray<R>,
  takenOver: ReadonlyArray<TakenOver>,
): R[] {
  const cursors = new Map(takenOver.map((call) => [call.exchangeId, call.afterId]));
  return openRequests.filter((request) => {
    const afterId = cursors.get(request.exchangeId);
    return afterId !== undefined && (request.eventId === undefined || request.eventId <= afterId);
  });
}

/**
 * Added to a wait for a lease to lapse, so the claim that ends it finds the lease past its end
 * (Postgres compares with its own clock, and a timer may fire a moment early by that clock).
 */
const LAPSE_MARGIN_MS = 50;

export function createGetStream(deps: GetStreamDeps) {
  const { legacy, waiter, deliverCall, log } = deps;

  /**
   * Serves the GET stream on `sse` until it is done (a resumed stream), `stop` aborts (the client
   * left) or `drain` does; the caller ends the stream.
   */
  return async function serveGetStream(
    session: LegacySession,
    lastEventIdHeader: string | undefined,
    sse: SseWriter,
    stop: AbortSignal,
    drain: AbortSignal,
  ): Promise<DeliveryEnd> {
    const owner = randomUUID(); // this connection, as the holder of the delivery leases it takes
    const resumable = supportsResumption(session);
    const lastEventId = parseLastEventId(lastEventIdHeader);
    const resumed = lastEventId !== undefined ? await legacy.streamOfEvent(session.id, lastEventId) : undefined;

    if (resumed && lastEventId !== undefined) {
      // The client resumes this stream explicitly: take its delivery over and finish it here.
      const calls = await legacy.activeCalls({ streamId: resumed });
      if (calls.length === 0) {
        // Its call already ended: replay what the client missed, then end.
        return deliverStream({ legacy, waiter }, resumed, lastEventId, sse, stop, { drainOnly: true });
      }
      // Its client's request timeout runs on from the call's start: it is answered pending as it
      // would have been on the stream it resumes.
      const ends = await Promise.all(
        calls.map(async (call) => {
          const pending = await deps.pendingOf(session, call);
          return deliverCall(call, sse, lastEventId, stop, {
            resumable,
            owner,
            takeOver: true,
            drain,
            ...(pending ? { pending } : {}),
          });
        }),
      );
      return ends.includes('drained') ? 'drained' : 'final';
    }

    // A plain GET takes over the calls no other connection delivers; responses never go on it.
    // While it is open it claims again when a connection of the session gives a call up: the
    // release's NOTIFY wakes it, so a call stream that closed has its open request re-sent here at
    // once, however busy the machine (no poll interval is involved, only this process's turn to
    // run). A process that died gives nothing up: its lease is claimed when it lapses, by waiting
    // until then. Whatever the wait misses (a notification lost while the listener reconnected),
    // the waiter's own polling and the next lapse find.
    const claim = async () => {
      const calls = await legacy.claimUndelivered(session.id, owner, DELIVERY_LEASE_MS);
      return calls.length ? calls : undefined;
    };
    // A call recorded after this look holds its lease for DELIVERY_LEASE_MS at least, so looking
    // again within that finds its lapse in time.
    const untilNextLapse = async () => {
      const ms = await legacy.nextLeaseLapse(session.id, owner).catch(() => undefined);
      return Math.min(ms ?? DELIVERY_LEASE_MS, DELIVERY_LEASE_MS) + LAPSE_MARGIN_MS;
    };
    const serving = new Map<string, Promise<void>>();
    const ending = eitherSignal(stop, drain);
    try {
      while (!ending.signal.aborted) {
        const timeoutMs = await untilNextLapse();
        const claimed = await waiter.waitFor(DELIVERY_FREED_CHANNEL, session.id, claim, timeoutMs, ending.signal);
        const fresh = newlyClaimed(claimed ?? [], new Set(serving.keys()));
        if (!fresh.length) continue;
        // Each stream's cursor is read before the open requests, so a request written meanwhile
        // is after the cursor: delivered by following the stream, not lost between the two reads.
        const takenOver = await Promise.all(
          fresh.map(async (call) => ({
            call,
            exchangeId: call.exchangeId,
            afterId: await legacy.lastEventId(call.streamId),
          })),
        );
        for (const request of redeliveries(await legacy.openRequestsOfSession(session.id), takenOver)) {
          sse.write(request.message, request.eventId);
        }
        for (const { call, afterId } of takenOver) {
          // Runs beside the stream's loop; the .catch logs any failure, so the chain never rejects.
          const delivery = deliverCall(call, sse, afterId, stop, { resumable, owner, withoutResponse: true, drain })
            .then(() => undefined)
            .catch((error) => callLogger(log, call.exchangeId).warn({ err: error }, 'GET stream delivery failed'))
            .finally(() => serving.delete(call.exchangeId));
          serving.set(call.exchangeId, delivery);
        }
      }
    } finally {
      ending.dispose();
    }
    // What the calls it delivers have recorded is written before the stream ends.
    await Promise.all(serving.values());
    return drain.aborted && !stop.aborted ? 'drained' : 'stopped';
  };
}

export type ServeGetStream = ReturnType<typeof createGetStream>;
