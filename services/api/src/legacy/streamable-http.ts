/**
 * The Streamable HTTP transport (2025-03-26 .. 2025-11-25) on /mcp. POST: `initialize` opens an
 * `Mcp-Session-Id` session; every later message names it (and, if it sends one, the negotiated
 * `MCP-Protocol-Version`); responses and notifications get 202; a request that starts no exchange
 * is answered as JSON; an exchange call answers on an SSE stream of its own (primed for a client
 * that resumes), which carries its server-to-client requests and then its response. GET opens the
 * session's standing or resumed stream (get-stream.ts), which also tells the client of each change
 * of the served tools, prompts and resources (list-change-relay.ts); DELETE ends the session.
 *
 * When the process stops, a stream whose client resumes (2025-11-25) ends at once, after what is
 * recorded, with its last event id and a `retry` hint: the client reconnects with Last-Event-ID
 * and another replica finishes it. So does every GET stream (clients re-open those of any
 * version). A call's stream to an older client, which cannot resume it, is kept until its
 * response or the end of the drain grace.
 *
 * A 2025-11-25 task's `tasks/result`, while the task runs, answers on a stream too: the task's
 * requests still open, then its call's stream from now on, ending with the call's response
 * addressed to the tasks/result request (the response intake takes the answers, as for any call).
 * So does `await_answer` of a pending call (legacy-await-answer.ts), and a call that still waits
 * LEGACY_PENDING_AFTER_MS after its stream began is answered with the pending result (pending-call.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { LegacyStore } from '../../../../lib/db/legacy-store';
import { SESSION_HEADER } from '../../../../lib/protocol/legacy';
import {
  sessionAlreadyInitialized,
  sessionHeaderRequired,
  sessionVersionMismatch,
} from '../../../../lib/protocol/error-catalog';
import { resultEnvelope } from '../../../../lib/protocol/json-rpc-envelope';
import { PRIMING_KEY } from '../../../../lib/protocol/legacy-stream-keys';
import { callerOf } from '../auth/caller';
import { replyWithError } from '../http/error-reply';
import type { Shutdown } from '../http/shutdown';
import type { DeliverCall } from './call-delivery';
import { asTaskResultResponse } from './legacy-task-view';
import type { ServeGetStream } from './get-stream';
import type { IncomingMessage } from './incoming-message';
import type { RequestIntake } from './request-intake';
import type { ResponseIntake } from './response-intake';
import { supportsResumption, type Sessions } from './sessions';
import { openSseInSlot, type SseOptions, type SseWriter } from './sse-writer';
import { RECONNECT_RETRY_MS, type DeliveryEnd } from './stream-delivery';
import type { StreamSlots } from './stream-slots';
import type { ListChanges } from '../../../../lib/handler-set/list-changes';
import { relayListChanges } from './list-change-relay';

export interface StreamableHttpDeps {
  legacy: LegacyStore;
  sessions: Sessions;
  requests: RequestIntake;
  responses: ResponseIntake;
  deliverCall: DeliverCall;
  serveGetStream: ServeGetStream;
  slots: StreamSlots;
  sseOptions: SseOptions;
  shutdown: Shutdown;
  /** The served lists' changes, when they can change: told on the GET stream. */
  listChanges?: ListChanges;
}

/** Ends a delivered stream: for a delivery the drain ended, with the hint to reconnect elsewhere. */
function endStream(sse: SseWriter, end: DeliveryEnd): void {
  if (end === 'drained') sse.endForReconnect(RECONNECT_RETRY_MS);
  else sse.end();
}

export function createStreamableHttp(deps: StreamableHttpDeps) {
  const { legacy, sessions, requests, responses, deliverCall, serveGetStream, slots, sseOptions, shutdown } = deps;

  return {
    /** POST /mcp of a legacy client (it sends `initialize` or names its session). */
    async post(req: Request, res: Response, message: IncomingMessage): Promise<void> {
      const caller = callerOf(res);
      const sessionId = req.get(SESSION_HEADER);
      if (!sessionId) {
        if (message.method !== 'initialize') {
          replyWithError(res, 'legacy', sessionHeaderRequired(), message.id);
          return;
        }
        const { id, result } = await sessions.initialize(message.params, caller);
        res.set(SESSION_HEADER, id).json(resultEnvelope(message.id, result));
        return;
      }
      const session = await sessions.find(sessionId, caller);
      if (!session) return sessions.refuseUnknown(res, message.id);
      const version = req.get('mcp-protocol-version');
      if (version !== undefined && version !== session.protocolVersion) {
        replyWithError(res, 'legacy', sessionVersionMismatch(version, session.protocolVersion), message.id);
        return;
      }
      if (message.method === undefined || message.id === undefined) {
        await responses.take(session, message);
        res.status(202).end();
        return;
      }
      if (message.method === 'initialize') throw sessionAlreadyInitialized();

      const owner = randomUUID(); // this connection, as the holder of the call's delivery lease
      // A call answers on a stream of its own: take its slot before starting anything.
      const release = requests.answersOnStream(message.method) ? slots.take(session.id) : () => undefined;
      // Released however the request ends, also when the client hangs up while the call starts.
      res.once('close', release);
      let answer;
      try {
        answer = await requests.answer(session, caller, message, (exchangeId) => `call:${exchangeId}`, owner);
      } catch (error) {
        release();
        throw error;
      }
      if (answer.kind === 'result') {
        release();
        res.json(resultEnvelope(message.id, answer.result));
        return;
      }
      // A client that left meanwhile re-attaches by sending the same request id again, or by a GET:
      // the lease this connection took when it recorded the call is given up, so a GET claims it at once.
      if (res.destroyed) {
        if (answer.kind === 'call') await legacy.releaseLease(answer.call.exchangeId, owner).catch(() => undefined);
        return;
      }
      const stop = new AbortController();
      res.on('close', () => stop.abort());
      const sse = openSseInSlot(res, release, sseOptions);
      if (answer.kind === 'task-stream' || answer.kind === 'await-stream') {
        const requestId = message.id;
        for (const request of answer.openRequests) sse.write(request.message, request.eventId);
        // Not resumable: a resumed stream could not know this request's id. The client that loses
        // it asks again; the drain waits for its response like an older client's call. A task's
        // tasks/result takes the call's delivery over (its call was answered at once); an await
        // goes beside the call's own delivery, if it still has one.
        const end = await deliverCall(answer.call, sse, answer.afterId, stop.signal, {
          owner,
          shared: true,
          drain: shutdown.closing,
          ...(answer.kind === 'task-stream'
            ? {
                takeOver: true,
                renderFinal: (response) => asTaskResultResponse(response, requestId, answer.taskId),
              }
            : {
                renderFinal: (response) => ({ ...response, id: requestId }),
                pending: { ...answer.pending, respondTo: requestId, onDrain: true },
              }),
        });
        endStream(sse, end);
        return;
      }
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
      const end = await deliverCall(answer.call, sse, 0, stop.signal, {
        resumable,
        honorClose: resumable,
        owner,
        takeOver: true,
        drain: resumable ? shutdown.draining : shutdown.closing,
        // A client that cannot resume the stream is answered pending when the process stops, too.
        ...(answer.pending ? { pending: { ...answer.pending, respondTo: message.id, onDrain: !resumable } } : {}),
      });
      endStream(sse, end);
    },

    /** GET /mcp: resumes a stream after Last-Event-ID, or re-delivers the session's open requests. */
    async get(req: Request, res: Response): Promise<void> {
      const session = await sessions.find(req.get(SESSION_HEADER), callerOf(res));
      if (!session) return sessions.refuseUnknown(res);
      // A client that hung up (or an API that closed its connection) while the session was read:
      // its 'close' has passed, so nothing would ever stop this stream's delivery loop.
      if (res.destroyed) return;
      const release = slots.take(session.id);
      const stop = new AbortController();
      res.on('close', () => stop.abort());
      const sse = openSseInSlot(res, release, sseOptions);
      sessions.keepAlive(session.id, stop.signal);
      relayListChanges(deps.listChanges, sse, stop.signal);
      endStream(sse, await serveGetStream(session, req.get('last-event-id'), sse, stop.signal, shutdown.draining));
    },

    /** DELETE /mcp: ends the session and the exchanges it still runs. */
    async delete(req: Request, res: Response): Promise<void> {
      const session = await sessions.find(req.get(SESSION_HEADER), callerOf(res));
      if (!session) return sessions.refuseUnknown(res);
      await sessions.endByClient(session);
      res.status(200).end();
    },
  };
}

export type StreamableHttp = ReturnType<typeof createStreamableHttp>;
