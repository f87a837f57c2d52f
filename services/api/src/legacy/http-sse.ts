/**
 * The HTTP+SSE transport (2024-11-05). GET /sse opens a session whose one stream carries
 * everything the server sends it (replies, server-to-client requests, responses of exchange calls)
 * and announces `POST /messages?sessionId=...`; the session lives as long as that stream. Every
 * POSTed message gets 202: responses and notifications are taken before it, requests are answered
 * on the stream after it (an error as the rendered error envelope).
 *
 * Its clients cannot move a session to another replica (the transport has no resumption), so a
 * stopping process keeps the stream while the session's calls run (until the drain grace is nearly
 * out, at the latest); then the session ends with its stream, as when the client leaves, and the stream
 * ends cleanly with a `retry` hint: the client's EventSource reconnects to a replica that serves,
 * which opens it a new session.
 */
import type { Request, Response } from 'express';
import type { LegacyStore } from '../../../../lib/db/legacy-store';
import type { ExchangeStore } from '../../../../lib/db/exchange-store';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import type { Logger } from '../../../../lib/log';
import { internalError } from '../../../../lib/protocol/error-catalog';
import { resultEnvelope } from '../../../../lib/protocol/json-rpc-envelope';
import { streamKeys } from '../../../../lib/protocol/legacy-stream-keys';
import { RpcError } from '../../../../lib/protocol/rpc-error';
import { callerOf } from '../auth/caller';
import { renderAnsweredError } from '../http/error-reply';
import { endWhenIdle, type Shutdown } from '../http/shutdown';
import type { ExchangeReconciler } from '../../../../lib/exchange-client/exchange-reconciler';
import { watchEndings } from './ending-watch';
import type { IncomingMessage } from './incoming-message';
import type { RequestIntake } from './request-intake';
import type { ResponseIntake } from './response-intake';
import type { Sessions } from './sessions';
import { remindWhilePeopleAnswer } from './person-wait-progress';
import { openSseInSlot, type SseOptions } from './sse-writer';
import type { ListChanges } from '../../../../lib/handler-set/list-changes';
import { relayListChanges } from './list-change-relay';
import { deliverStream, RECONNECT_RETRY_MS } from './stream-delivery';
import type { StreamSlots } from './stream-slots';

export interface HttpSseDeps {
  legacy: LegacyStore;
  /** Whether a question a call waits on is answered (its round after is recorded), for its reminders. */
  exchanges: Pick<ExchangeStore, 'readRound'>;
  waiter: OutcomeWaiter;
  reconciler: ExchangeReconciler;
  sessions: Sessions;
  requests: RequestIntake;
  responses: ResponseIntake;
  slots: StreamSlots;
  sseOptions: SseOptions;
  /** How often (HTTP_WAIT_MS) the stream's running calls are checked with Temporal for endings it did not record. */
  endingCheckMs: number;
  /** How often (QUESTION_PROGRESS_EVERY_MS) a call with a request open to a person is reminded that it waits. */
  personWaitEveryMs?: number;
  log: Logger;
  shutdown: Shutdown;
  /** The served lists' changes, when they can change: told on the session's stream. */
  listChanges?: ListChanges;
}

/** The one stream of a 2024-11-05 session. */
const streamOf = (sessionId: string) => `sse:${sessionId}`;

export function createHttpSse(deps: HttpSseDeps) {
  const { legacy, waiter, reconciler, sessions, requests, responses, slots, sseOptions, log, shutdown } = deps;

  return {
    /** GET /sse: opens a session whose one stream carries every response. */
    async open(_req: Request, res: Response, messagesPath: string): Promise<void> {
      const caller = callerOf(res);
      await sessions.checkCapacity(caller);
      const sessionId = sessions.newId();
      const release = slots.take(sessionId);
      res.once('close', release);
      try {
        await sessions.openForStream(sessionId, caller);
      } catch (error) {
        release();
        throw error;
      }
      if (res.destroyed) {
        await sessions.endUnopened(sessionId); // its stream is gone, and a 2024-11-05 session lives as long as its stream
        return;
      }
      const stop = new AbortController();
      res.on('close', () => stop.abort());
      const sse = openSseInSlot(res, release, sseOptions);
      sessions.keepAlive(sessionId, stop.signal);
      sse.event('endpoint', `${messagesPath}?sessionId=${encodeURIComponent(sessionId)}`);
      relayListChanges(deps.listChanges, sse, stop.signal);
      const streamId = streamOf(sessionId);
      const runningCalls = async () => (await legacy.activeCalls({ streamId })).map((call) => call.exchangeId);
      watchEndings(reconciler, runningCalls, deps.endingCheckMs, stop.signal);
      const drain = endWhenIdle(shutdown, stop.signal, async () => (await runningCalls()).length === 0);
      const writer =
        deps.personWaitEveryMs === undefined
          ? sse
          : remindWhilePeopleAnswer(
              { legacy, exchanges: deps.exchanges },
              sessionId,
              sse,
              deps.personWaitEveryMs,
              stop.signal,
            );
      const end = await deliverStream({ legacy, waiter }, streamId, 0, writer, stop.signal, {
        untilFinal: false,
        drain,
      });
      // Ended before the stream is, so a stopping process closes nothing under it.
      await sessions.endWithStream(sessionId, streamId);
      if (end === 'drained') sse.endForReconnect(RECONNECT_RETRY_MS);
    },

    /** POST /messages?sessionId=: every answer goes to the session's stream; 202 here. */
    async post(req: Request, res: Response, message: IncomingMessage): Promise<void> {
      const caller = callerOf(res);
      const session = await sessions.find(
        typeof req.query.sessionId === 'string' ? req.query.sessionId : undefined,
        caller,
      );
      if (!session) return sessions.refuseUnknown(res, message.id);
      const streamId = streamOf(session.id);
      const reply = (body: Record<string, unknown>) =>
        legacy.appendMessage({
          sessionId: session.id,
          streamId,
          messageKey: streamKeys.reply(message.id),
          message: body,
        });
      // An answer or a cancel is taken before the 202, so a client that got 202 knows it landed.
      if (message.method === undefined || message.id === undefined) {
        await responses.take(session, message);
        res.status(202).end();
        return;
      }
      res.status(202).end();
      try {
        if (message.method === 'initialize') {
          const result = await sessions.handshake(session, message.params);
          return reply(resultEnvelope(message.id, result));
        }
        // The session's one stream delivers the call; its lease owner is the session itself.
        const answer = await requests.answer(session, caller, message, () => streamId, streamId);
        if (answer.kind === 'result') await reply(resultEnvelope(message.id, answer.result));
      } catch (error) {
        const rpc = error instanceof RpcError ? error : internalError();
        if (!(error instanceof RpcError)) log.error({ err: error }, 'request failed');
        await reply(renderAnsweredError('legacy', rpc, message.id).body);
      }
    },
  };
}

export type HttpSse = ReturnType<typeof createHttpSse>;
