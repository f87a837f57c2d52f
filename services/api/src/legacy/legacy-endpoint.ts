/**
 * The handshake-era transports, on the same service as the modern endpoint:
 *
 * - Streamable HTTP (2025-03-26 .. 2025-11-25) on /mcp: `initialize` opens an `Mcp-Session-Id`
 *   session; each exchange call answers on its own SSE stream, which carries the real
 *   server-to-client requests made from the handler's asks and then the response; GET resumes a
 *   stream (`Last-Event-ID`) or opens one that re-delivers every still-open request; DELETE ends
 *   the session.
 * - HTTP+SSE (2024-11-05): GET /sse is the session's one stream and announces POST /messages.
 *
 * Everything a stream carries is produced into Postgres first (see call-driver.ts), so the client
 * may POST its answers to any replica and reconnect to any replica, and a restart loses nothing.
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import {
  DELIVERY_LEASE_MS,
  type LegacyCall,
  type LegacySession,
  type LegacyStore,
} from '../../../../lib/db/legacy-store';
import { canonicalJson } from '../../../../lib/exchange/digest';
import { exchangeLogger, sessionRef, type Logger } from '../../../../lib/log';
import { workflowIdFor } from '../../../../workflows/messages';
import { SESSION_HEADER } from '../../../../lib/protocol/legacy';
import type { Limits } from '../../../../lib/config';
import {
  capacityExceeded,
  internalError,
  requestInProgress,
  sessionAlreadyInitialized,
  sessionHeaderRequired,
  sessionNotFound,
  sessionVersionMismatch,
  tooLarge,
} from '../../../../lib/protocol/error-catalog';
import { renderErrorResponse } from '../../../../lib/protocol/error-response';
import { resultEnvelope } from '../../../../lib/protocol/json-rpc-envelope';
import { RpcError } from '../../../../lib/protocol/rpc-error';
import { replyWithError } from '../http/error-reply';
import type { ExchangeGateway } from '../exchange-gateway';
import type { ExchangeReconciler } from '../exchange-reconciler';
import type { ExchangeStore } from '../../../../lib/db/exchange-store';
import { watchEndings } from './ending-watch';
import { PRIMING_KEY, streamKeys } from '../../../../lib/protocol/legacy-stream-keys';
import type { LegacyMethods } from './legacy-methods';
import { isReverseRequestId } from '../../../../lib/protocol/reverse-request-id';
import { roundInputBytes } from './round-input-size';
import { createStreamSlots } from './stream-slots';
import { deliverStream, openSse, type DeliveryOptions, type SseWriter } from './stream-delivery';

/** Clients of 2025-11-25 resume streams by event id (SEP-1699); older ones get no priming events. */
function supportsResumption(session: LegacySession): boolean {
  return session.protocolVersion >= '2025-11-25';
}

export interface IncomingMessage {
  id?: string | number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

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
  log: Logger;
  limits: Limits;
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

/** Answers with an error at the status the handshake era gives it (see error-response.ts). */
function refuse(res: Response, id: string | number | undefined, error: RpcError): void {
  replyWithError(res, 'legacy', error, id);
}

export function createLegacyEndpoint(deps: LegacyEndpointDeps) {
  const { methods, legacy, exchanges, waiter, gateway, reconciler, log, limits } = deps;
  const slots = createStreamSlots(limits);
  const sseOptions = { maxBufferedBytes: limits.sseMaxBufferedBytes, log };

  /** Opens an SSE stream in one of the session's slots, freed when the response closes. */
  function openStream(res: Response, release: () => void): SseWriter {
    res.on('close', release);
    return openSse(res, sseOptions);
  }

  /** Refuses a new session while the deployment holds its limit of open ones (counted in Postgres). */
  async function checkSessionCapacity(): Promise<void> {
    if ((await legacy.countOpenSessions()) >= limits.maxOpenSessions) {
      throw capacityExceeded('open sessions', limits.maxOpenSessions, limits.capacityRetryAfterS);
    }
  }
  const callLog = (exchangeId: string, round?: number) =>
    exchangeLogger(log, {
      exchangeId,
      workflowId: workflowIdFor(exchangeId),
      ...(round !== undefined ? { round } : {}),
    });

  /** A client's JSON-RPC response to one of our requests: one key's answer to its exchange. */
  async function takeResponse(session: LegacySession, message: IncomingMessage): Promise<void> {
    const id = message.id;
    const request = isReverseRequestId(id) ? await legacy.findRequest(session.id, id) : undefined;
    // An error answer is an answer too (a -32601 says the client cannot do it): the handler decides.
    const response = message.error !== undefined ? { error: message.error } : message.result;
    // The same answer again (a client retrying its POST) is signalled again: the first signal may
    // not have landed, and the workflow drops duplicates. Anything else settled is dropped.
    const repeat = request?.status === 'answered' && canonicalJson(request.response) === canonicalJson(response);
    if (!request || (request.status !== 'open' && !repeat)) {
      log.info(
        { ...sessionRef(session.id), responseId: id },
        'response dropped: unknown or already settled request id',
      );
      return;
    }
    // The deadline is a rule: an answer after it is refused before anything is settled or signalled;
    // the stream carries the expiry (and withdraws this request) once the workflow records it.
    const ask = await exchanges.readRound(request.exchangeId, request.round);
    if (ask?.deadlineAt && Date.now() > ask.deadlineAt.getTime()) {
      callLog(request.exchangeId, request.round).info(
        { ...sessionRef(session.id), key: request.key },
        'response dropped: the round deadline has passed',
      );
      return;
    }
    // Repeats are signalled again only so often (counted in Postgres, across replicas).
    if (repeat && !(await legacy.countRepeat(request.id))) {
      log.info(
        { ...sessionRef(session.id), responseId: id, limit: limits.maxRepeatedAnswers },
        'response dropped: answer repeated too often',
      );
      return;
    }
    // One round's answers travel to the workflow together: refuse the one that would make them too
    // large before anything is settled, so the request stays open for a smaller answer.
    if (!repeat) {
      const size = roundInputBytes(
        response,
        await legacy.answersOfRound(request.exchangeId, request.round),
        request.key,
      );
      if (size > limits.maxRoundInputBytes)
        throw tooLarge("this round's answers", 'result', limits.maxRoundInputBytes, size);
    }
    // Settle first, so the request can no longer be withdrawn (nor answered twice); then signal.
    // If the signal cannot be sent, the request is reopened and the client's POST fails, so the
    // answer is neither lost nor half-taken.
    if (!repeat && !(await legacy.answerRequest(request.id, response))) {
      log.info({ ...sessionRef(session.id), responseId: id }, 'response dropped: request already settled');
      return;
    }
    let delivered;
    try {
      delivered = await gateway.sendKeyAnswer(request.exchangeId, { round: request.round, key: request.key, response });
    } catch (error) {
      if (!repeat) await legacy.reopenRequest(request.id);
      throw error;
    }
    // No workflow took it: it closed, and if it recorded no ending (terminated), one is recorded now for the stream.
    if (!delivered) await reconciler.reconcile(request.exchangeId);
    callLog(request.exchangeId, request.round).info(
      { ...sessionRef(session.id), key: request.key },
      'answer signalled',
    );
  }

  async function takeNotification(session: LegacySession, message: IncomingMessage): Promise<void> {
    if (message.method !== 'notifications/cancelled') return;
    const params = (message.params ?? {}) as { requestId?: unknown; reason?: unknown };
    const call = await legacy.findCall(session.id, JSON.stringify(params.requestId ?? null));
    if (!call) return;
    const reason = typeof params.reason === 'string' ? params.reason : undefined;
    await gateway.cancel(call.exchangeId, reason);
    callLog(call.exchangeId).info(sessionRef(session.id), 'exchange cancelled by the client');
  }

  /**
   * Delivers the call's stream on `sse` until its response is written, holding the call's delivery
   * lease for `owner` (this connection) meanwhile. The worker writes the stream; this only reads it
   * (and asks Temporal now and then about a workflow that may have been ended without a word).
   */
  async function serveCall(
    call: LegacyCall,
    sse: SseWriter,
    afterId: number,
    stop: AbortSignal,
    options: DeliveryOptions & { owner: string; takeOver?: boolean },
  ) {
    const local = new AbortController();
    const stopLocal = () => local.abort();
    stop.addEventListener('abort', stopLocal, { once: true });
    const renew = () => legacy.renewLease(call.exchangeId, options.owner, DELIVERY_LEASE_MS).catch(() => undefined);
    await legacy.renewLease(call.exchangeId, options.owner, DELIVERY_LEASE_MS, options.takeOver).catch(() => undefined);
    const renewal = setInterval(renew, DELIVERY_LEASE_MS / 3);
    renewal.unref();
    watchEndings(reconciler, async () => [call.exchangeId], deps.endingCheckMs, local.signal);
    try {
      return await deliverStream({ legacy, waiter }, call.streamId, afterId, sse, local.signal, options);
    } finally {
      clearInterval(renewal);
      await legacy.releaseLease(call.exchangeId, options.owner).catch(() => undefined);
      stop.removeEventListener('abort', stopLocal);
      local.abort();
    }
  }

  /** Keeps a session's last-seen time fresh while one of its streams is open (see retention). */
  function keepSessionAlive(sessionId: string, stop: AbortSignal): void {
    const timer = setInterval(() => legacy.touchSession(sessionId).catch(() => undefined), 60_000);
    timer.unref();
    stop.addEventListener('abort', () => clearInterval(timer), { once: true });
  }

  /** Answers a request of a session; exchange calls are recorded and returned for streaming. */
  async function answerRequest(
    session: LegacySession,
    message: IncomingMessage,
    streamIdFor: (exchangeId: string) => string,
    owner: string,
  ) {
    const outcome = await methods.call(session, message.method!, message.params);
    if (outcome.kind === 'result') return { kind: 'result' as const, result: outcome.result };
    const exchangeId = randomUUID();
    const call: LegacyCall = {
      sessionId: session.id,
      requestId: JSON.stringify(message.id),
      requestIdJson: message.id!,
      exchangeId,
      streamId: streamIdFor(exchangeId),
      ...(outcome.listening.progressToken !== undefined ? { progressToken: outcome.listening.progressToken } : {}),
    };
    // A new exchange only while the session runs fewer than its limit; the same request id again
    // (a retry re-attaching to its call) is never refused.
    if ((await legacy.countRunningCalls(session.id)) >= limits.maxRunningExchangesPerSession) {
      const existing = await legacy.findCall(session.id, call.requestId);
      if (existing)
        return {
          kind: 'call' as const,
          call: existing,
          listening: { ...outcome.listening, progressToken: existing.progressToken },
        };
      throw capacityExceeded(
        'running exchanges of this session',
        limits.maxRunningExchangesPerSession,
        limits.capacityRetryAfterS,
      );
    }
    // The call is recorded before its exchange starts: the same request sent again (a retry)
    // finds it and is served the same stream instead of starting a second exchange.
    if (!(await legacy.recordCall(call, owner))) {
      const existing = await legacy.findCall(session.id, call.requestId);
      if (!existing) throw requestInProgress();
      return {
        kind: 'call' as const,
        call: existing,
        listening: { ...outcome.listening, progressToken: existing.progressToken },
      };
    }
    try {
      await methods.start(outcome.leg, exchangeId);
    } catch (error) {
      await legacy.deleteCall(exchangeId).catch(() => undefined);
      throw error;
    }
    return { kind: 'call' as const, call, listening: outcome.listening };
  }

  async function sessionOf(id: string | undefined): Promise<LegacySession | undefined> {
    if (!id) return undefined;
    const session = await legacy.getSession(id);
    if (!session || session.closed) return undefined;
    await legacy.touchSession(id);
    return session;
  }

  function notFound(res: Response, id?: string | number) {
    refuse(res, id, sessionNotFound());
  }

  return {
    /** POST /mcp of a handshake-era client (it sends `initialize` or names its session). */
    async post(req: Request, res: Response, message: IncomingMessage): Promise<void> {
      const sessionId = req.get(SESSION_HEADER);
      if (!sessionId) {
        if (message.method !== 'initialize') {
          refuse(res, message.id, sessionHeaderRequired());
          return;
        }
        await checkSessionCapacity();
        const id = methods.newSessionId();
        const result = await methods.initialize(message.params, id, 'streamable-http', false);
        log.info({ ...sessionRef(id), protocolVersion: result.protocolVersion }, 'session initialized');
        res.set(SESSION_HEADER, id).json(resultEnvelope(message.id, result));
        return;
      }
      const session = await sessionOf(sessionId);
      if (!session) return notFound(res, message.id);
      const version = req.get('mcp-protocol-version');
      if (version !== undefined && version !== session.protocolVersion) {
        refuse(res, message.id, sessionVersionMismatch(version, session.protocolVersion));
        return;
      }
      if (message.method === undefined) {
        await takeResponse(session, message);
        res.status(202).end();
        return;
      }
      if (message.id === undefined) {
        await takeNotification(session, message);
        res.status(202).end();
        return;
      }
      if (message.method === 'initialize') throw sessionAlreadyInitialized();

      const owner = randomUUID(); // this connection, as the holder of the call's delivery lease
      // A call answers on a stream of its own: take its slot before starting anything.
      const release = methods.startsExchange(message.method) ? slots.take(session.id) : () => undefined;
      // Released however the request ends, also when the client hangs up while the call starts.
      res.once('close', release);
      let answer;
      try {
        answer = await answerRequest(session, message, (exchangeId) => `call:${exchangeId}`, owner);
      } catch (error) {
        release();
        throw error;
      }
      if (answer.kind === 'result') {
        release();
        res.json(resultEnvelope(message.id, answer.result));
        return;
      }
      // A client that left meanwhile re-attaches by sending the same request id again, or by a GET.
      if (res.destroyed) return;
      const stop = new AbortController();
      res.on('close', () => stop.abort());
      const sse = openStream(res, release);
      const resumable = supportsResumption(session);
      if (resumable) {
        await legacy.appendMessage({
          sessionId: session.id,
          streamId: answer.call.streamId,
          messageKey: PRIMING_KEY,
          message: {},
        });
      }
      // A repeated request id re-attaches to its call (taking its delivery over): same stream, same result.
      await serveCall(answer.call, sse, 0, stop.signal, { resumable, honorClose: resumable, owner, takeOver: true });
      sse.end();
    },

    /** GET /mcp: resumes a stream after Last-Event-ID, or re-delivers the session's open requests. */
    async get(req: Request, res: Response): Promise<void> {
      const session = await sessionOf(req.get(SESSION_HEADER));
      if (!session) return notFound(res);
      // A client that hung up (or an API that closed its connection) while the session was read:
      // its 'close' has passed, so nothing would ever stop this stream's delivery loop.
      if (res.destroyed) return;
      const release = slots.take(session.id);
      const stop = new AbortController();
      res.on('close', () => stop.abort());
      const sse = openStream(res, release);
      keepSessionAlive(session.id, stop.signal);
      const owner = randomUUID();
      const resumable = supportsResumption(session);
      const lastEventId = Number(req.get('last-event-id') ?? NaN);
      const resumed = Number.isInteger(lastEventId) ? await legacy.streamOfEvent(session.id, lastEventId) : undefined;

      if (resumed) {
        // The client resumes this stream explicitly: take its delivery over and finish it here.
        const calls = await legacy.activeCalls({ streamId: resumed });
        if (calls.length === 0) {
          // Its call already ended: replay what the client missed, then end.
          await deliverStream({ legacy, waiter }, resumed, lastEventId, sse, stop.signal, { drainOnly: true });
        }
        await Promise.all(
          calls.map(async (call) =>
            serveCall(call, sse, lastEventId, stop.signal, { resumable, owner, takeOver: true }),
          ),
        );
        sse.end();
        return;
      }

      // A plain GET takes over the calls no other connection delivers (checked again while it is
      // open, so it also takes over a call whose POST stream dies later): their open requests are
      // re-delivered and their later requests follow here; responses never go on this stream.
      const serving = new Set<string>();
      while (!stop.signal.aborted) {
        const claimed = await legacy.claimUndelivered(session.id, owner, DELIVERY_LEASE_MS).catch((error) => {
          log.warn({ err: error, ...sessionRef(session.id) }, 'could not claim undelivered calls');
          return [];
        });
        const fresh = claimed.filter((call) => !serving.has(call.exchangeId));
        if (fresh.length) {
          const ids = new Set(fresh.map((call) => call.exchangeId));
          for (const request of await legacy.openRequestsOfSession(session.id)) {
            if (ids.has(request.exchangeId)) sse.write(request.message, request.eventId);
          }
        }
        for (const call of fresh) {
          serving.add(call.exchangeId);
          // Runs beside the stream's loop; the .catch logs any failure, so the chain never rejects.
          void (async () => {
            const afterId = await legacy.lastEventId(call.streamId);
            await serveCall(call, sse, afterId, stop.signal, { resumable, owner, withoutResponse: true });
          })()
            .catch((error) => callLog(call.exchangeId).warn({ err: error }, 'GET stream delivery failed'))
            .finally(() => serving.delete(call.exchangeId));
        }
        await sleep(DELIVERY_LEASE_MS / 3, stop.signal);
      }
    },

    /** DELETE /mcp: ends the session and the exchanges it still runs. */
    async delete(req: Request, res: Response): Promise<void> {
      const session = await sessionOf(req.get(SESSION_HEADER));
      if (!session) return notFound(res);
      for (const call of await legacy.activeCalls({ sessionId: session.id }))
        await gateway.cancel(call.exchangeId, 'session ended');
      await legacy.closeSession(session.id);
      log.info(sessionRef(session.id), 'session ended by the client');
      res.status(200).end();
    },

    /** GET /sse (2024-11-05): opens a session whose one stream carries every response. */
    async sseOpen(req: Request, res: Response, messagesPath: string): Promise<void> {
      await checkSessionCapacity();
      const sessionId = methods.newSessionId();
      const release = slots.take(sessionId);
      res.once('close', release);
      try {
        await legacy.createSession({
          id: sessionId,
          transport: 'http+sse',
          protocolVersion: '2024-11-05',
          clientCapabilities: {},
          principal: 'anonymous',
        });
      } catch (error) {
        release();
        throw error;
      }
      if (res.destroyed) {
        await legacy.closeSession(sessionId); // its stream is gone, and a 2024-11-05 session lives as long as its stream
        return;
      }
      const stop = new AbortController();
      res.on('close', () => stop.abort());
      const sse = openStream(res, release);
      keepSessionAlive(sessionId, stop.signal);
      sse.event('endpoint', `${messagesPath}?sessionId=${encodeURIComponent(sessionId)}`);
      const streamId = `sse:${sessionId}`;
      watchEndings(
        reconciler,
        async () => (await legacy.activeCalls({ streamId })).map((call) => call.exchangeId),
        deps.endingCheckMs,
        stop.signal,
      );
      await deliverStream({ legacy, waiter }, streamId, 0, sse, stop.signal, { untilFinal: false });
      // The 2024-11-05 session lives as long as its stream.
      for (const call of await legacy.activeCalls({ streamId }))
        await gateway.cancel(call.exchangeId, 'session stream closed');
      await legacy.closeSession(sessionId);
    },

    /** POST /messages?sessionId= (2024-11-05): every answer goes to the session's stream; 202 here. */
    async ssePost(req: Request, res: Response, message: IncomingMessage): Promise<void> {
      const session = await sessionOf(typeof req.query.sessionId === 'string' ? req.query.sessionId : undefined);
      if (!session) return notFound(res, message.id);
      const streamId = `sse:${session.id}`;
      const reply = (body: Record<string, unknown>) =>
        legacy.appendMessage({
          sessionId: session.id,
          streamId,
          messageKey: streamKeys.reply(message.id),
          message: body,
        });
      // An answer or a cancel is taken before the 202, so a client that got 202 knows it landed.
      if (message.method === undefined || message.id === undefined) {
        await (message.method === undefined ? takeResponse(session, message) : takeNotification(session, message));
        res.status(202).end();
        return;
      }
      res.status(202).end();
      try {
        if (message.method === 'initialize') {
          const result = await methods.initialize(message.params, session.id, 'http+sse', true);
          return reply(resultEnvelope(message.id, result));
        }
        const answer = await answerRequest(session, message, () => streamId, `sse:${session.id}`);
        if (answer.kind === 'result') await reply(resultEnvelope(message.id, answer.result));
      } catch (error) {
        const rpc = error instanceof RpcError ? error : internalError();
        if (!(error instanceof RpcError)) log.error({ err: error }, 'request failed');
        await reply(renderErrorResponse('legacy', rpc, message.id).body);
      }
    },
  };
}

export type LegacyEndpoint = ReturnType<typeof createLegacyEndpoint>;
