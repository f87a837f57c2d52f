/**
 * The GET /mcp stream of a Streamable HTTP session. With a `Last-Event-ID` that belongs to one of
 * the session's streams, it resumes that stream: replays what the client missed after that id and,
 * while the stream's call still runs, takes its delivery over and finishes it here. Without one, it
 * is the session's standing stream: every third of DELIVERY_LEASE_MS it claims the delivery lease
 * of the session's running calls that no connection delivers (so a call whose POST stream died is
 * taken over once its lease lapses), re-delivers their still-open requests and follows their later
 * ones; responses never go on it. When the process stops (`drain`), it writes what its calls have
 * recorded and returns 'drained', for the caller to tell the client to reconnect elsewhere.
 */
import { randomUUID } from 'node:crypto';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import {
  DELIVERY_LEASE_MS,
  type LegacyCall,
  type LegacySession,
  type LegacyStore,
  type OpenRequest,
} from '../../../../lib/db/legacy-store';
import { sessionRef, type Logger } from '../../../../lib/log';
import type { DeliverCall } from './call-delivery';
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

/** The session's open requests that belong to the calls taken over, in the order they are listed. */
export function redeliveries<R extends Pick<OpenRequest, 'exchangeId'>>(
  openRequests: ReadonlyArray<R>,
  takenOver: ReadonlyArray<LegacyCall>,
): R[] {
  const ids = new Set(takenOver.map((call) => call.exchangeId));
  return openRequests.filter((request) => ids.has(request.exchangeId));
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

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
      const ends = await Promise.all(
        calls.map(async (call) =>
          deliverCall(call, sse, lastEventId, stop, { resumable, owner, takeOver: true, drain }),
        ),
      );
      return ends.includes('drained') ? 'drained' : 'final';
    }

    // A plain GET takes over the calls no other connection delivers (checked again while it is
    // open, so it also takes over a call whose POST stream dies later): their open requests are
    // re-delivered and their later requests follow here; responses never go on this stream.
    const serving = new Map<string, Promise<void>>();
    const ending = eitherSignal(stop, drain);
    try {
      while (!ending.signal.aborted) {
        const claimed = await legacy.claimUndelivered(session.id, owner, DELIVERY_LEASE_MS).catch((error) => {
          log.warn({ err: error, ...sessionRef(session.id) }, 'could not claim undelivered calls');
          return [];
        });
        const fresh = newlyClaimed(claimed, new Set(serving.keys()));
        if (fresh.length) {
          for (const request of redeliveries(await legacy.openRequestsOfSession(session.id), fresh)) {
            sse.write(request.message, request.eventId);
          }
        }
        for (const call of fresh) {
          // Runs beside the stream's loop; the .catch logs any failure, so the chain never rejects.
          const delivery = (async () => {
            const afterId = await legacy.lastEventId(call.streamId);
            await deliverCall(call, sse, afterId, stop, { resumable, owner, withoutResponse: true, drain });
          })()
            .catch((error) => callLogger(log, call.exchangeId).warn({ err: error }, 'GET stream delivery failed'))
            .finally(() => serving.delete(call.exchangeId));
          serving.set(call.exchangeId, delivery);
        }
        await sleep(DELIVERY_LEASE_MS / 3, ending.signal);
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
