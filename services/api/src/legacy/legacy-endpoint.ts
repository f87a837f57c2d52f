/**
 * The legacy side of the API (2024-11-05 .. 2025-11-25), wired from its parts; api.ts builds
 * it and routes/mcp.ts calls it. Each part has one job:
 *
 * - sessions.ts: open on `initialize` or GET /sse, look up, keep fresh, end; the open-sessions budget
 * - request-intake.ts: a session's requests, answered at once or recorded as a call whose exchange starts
 * - response-intake.ts: the client's responses to server-to-client requests, and its cancellations
 * - call-delivery.ts: one call's stream on one connection, under the call's delivery lease (lease-hold.ts),
 *   reminding a host whose call waits on a person that it waits (person-wait-progress.ts), and
 *   answering one that waits past its client's patience with the pending result (pending-call.ts)
 * - get-stream.ts: the GET /mcp stream (resume by Last-Event-ID, take over and re-deliver open requests)
 * - list-change-relay.ts: `notifications/{tools,prompts,resources}/list_changed` on a session's standing stream
 * - streamable-http.ts and http-sse.ts: the two transports
 * - stream-delivery.ts, sse-writer.ts, stream-slots.ts: the event log onto SSE, and the stream budgets
 *
 * Everything a stream carries is written into Postgres by whoever records the round, in the same
 * transaction (lib/db/legacy-projection.ts; the worker, or the API reconciling an ending Temporal
 * left unrecorded). This side only delivers those rows and takes requests and responses, so a
 * client may POST to any replica, reconnect to any replica, and a restart loses nothing.
 */
import type { Limits } from '../../../../lib/config';
import type { ExchangeStore } from '../../../../lib/db/exchange-store';
import type { LegacyStore } from '../../../../lib/db/legacy-store';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import type { Logger } from '../../../../lib/log';
import type { ExchangeGateway } from '../../../../lib/exchange-client/exchange-gateway';
import type { Shutdown } from '../http/shutdown';
import type { ExchangeReconciler } from '../../../../lib/exchange-client/exchange-reconciler';
import { createCallDelivery } from './call-delivery';
import { createWaitingOn } from '../exchange-legs/waiting-on';
import { createGetStream } from './get-stream';
import { createHttpSse } from './http-sse';
import type { LegacyMethods } from './legacy-methods';
import { createRequestIntake } from './request-intake';
import { createResponseIntake } from './response-intake';
import type { CallerPages } from '../exchange-legs/leg-types';
import type { ListChanges } from '../../../../lib/handler-set/list-changes';
import { createSessions } from './sessions';
import { createStreamSlots } from './stream-slots';
import { createStreamableHttp } from './streamable-http';

export type { IncomingMessage } from './incoming-message';

export interface LegacyEndpointDeps {
  methods: LegacyMethods;
  legacy: LegacyStore;
  /** The exchanges' record: a round's deadline is read from it. */
  exchanges: ExchangeStore;
  waiter: OutcomeWaiter;
  gateway: ExchangeGateway;
  reconciler: ExchangeReconciler;
  /** How often (HTTP_WAIT_MS) a stream's running calls are checked with Temporal for endings it did not record. */
  endingCheckMs: number;
  /** How often (QUESTION_PROGRESS_EVERY_MS) a call with a request open to a person is reminded that it waits. */
  personWaitEveryMs?: number;
  log: Logger;
  limits: Limits;
  /** The process's stop: what each stream does when it drains (streamable-http.ts, http-sse.ts). */
  shutdown: Shutdown;
  /** The answer page, when it is on: it takes the caller's decline of a URL-mode question. */
  callerPages?: Pick<CallerPages, 'refuseAsCaller'>;
  /** The served lists' changes, when they can change: told on each session's standing stream (list-change-relay.ts). */
  listChanges?: ListChanges;
}

export function createLegacyEndpoint(deps: LegacyEndpointDeps) {
  const { methods, legacy, exchanges, waiter, gateway, reconciler, endingCheckMs, log, limits, shutdown } = deps;
  const slots = createStreamSlots(limits);
  const sseOptions = { maxBufferedBytes: limits.sseMaxBufferedBytes, log };
  const sessions = createSessions({ methods, legacy, gateway, limits, log });
  const requests = createRequestIntake({ methods, legacy, limits });
  const responses = createResponseIntake({
    legacy,
    exchanges,
    gateway,
    reconciler,
    limits,
    log,
    ...(deps.callerPages ? { callerPages: deps.callerPages } : {}),
  });
  const { personWaitEveryMs } = deps;
  const deliverCall = createCallDelivery({
    legacy,
    exchanges,
    waiter,
    reconciler,
    endingCheckMs,
    personWaitEveryMs,
    waitingOn: createWaitingOn({ store: exchanges, gateway }),
  });
  const serveGetStream = createGetStream({
    legacy,
    waiter,
    deliverCall,
    log,
    pendingOf: (session, call) => methods.pendingOfCall(session, call),
  });
  const streamable = createStreamableHttp({
    legacy,
    sessions,
    requests,
    responses,
    deliverCall,
    serveGetStream,
    slots,
    sseOptions,
    shutdown,
    ...(deps.listChanges ? { listChanges: deps.listChanges } : {}),
  });
  const httpSse = createHttpSse({
    legacy,
    exchanges,
    waiter,
    reconciler,
    sessions,
    requests,
    responses,
    slots,
    sseOptions,
    endingCheckMs,
    personWaitEveryMs,
    log,
    shutdown,
    ...(deps.listChanges ? { listChanges: deps.listChanges } : {}),
  });

  return {
    /** POST /mcp of a legacy client (it sends `initialize` or names its session). */
    post: streamable.post,
    /** GET /mcp: resumes a stream after Last-Event-ID, or re-delivers the session's open requests. */
    get: streamable.get,
    /** DELETE /mcp: ends the session and the exchanges it still runs. */
    delete: streamable.delete,
    /** GET /sse (2024-11-05): opens a session whose one stream carries every response. */
    sseOpen: httpSse.open,
    /** POST /messages?sessionId= (2024-11-05): every answer goes to the session's stream; 202 here. */
    ssePost: httpSse.post,
  };
}

export type LegacyEndpoint = ReturnType<typeof createLegacyEndpoint>;
