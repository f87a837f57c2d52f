/**
 * What a legacy client sends that is not a request, on either transport: its JSON-RPC
 * responses to the server's requests (each one key's answer, settled in Postgres and then signalled
 * to its exchange's workflow), and `notifications/cancelled` for one of its own calls (which cancels
 * that exchange). A response that cannot apply (unknown id, already settled, after the round's
 * deadline, repeated while the workflow has it, repeated too often) is logged and dropped before
 * anything is signalled; one that would make its round's answers too large (MAX_ROUND_INPUT_BYTES)
 * is refused and leaves the request open.
 */
import type { LegacySession, LegacyStore, OpenRequest } from '../../../../lib/db/legacy-store';
import type { ExchangeStore } from '../../../../lib/db/exchange-store';
import type { Limits } from '../../../../lib/config';
import { repeatOf } from '../../../../lib/exchange-rules/answer-repeats';
import { canonicalJson } from '../../../../lib/exchange/digest';
import { isLate } from '../../../../lib/exchange-rules/round-deadline';
import { overRoundInputBudget, roundAnswersBytes } from '../../../../lib/exchange-rules/round-input-size';
import { logExchange, sessionRef, type Logger } from '../../../../lib/log';
import { apiMetrics } from '../../../../lib/metrics/api-metrics';
import { tooLarge } from '../../../../lib/protocol/error-catalog';
import { linkToExchangeTrace } from '../../../../lib/tracing/exchange-trace';
import { tagLegExchange } from '../../../../lib/tracing/leg-span';
import { isReverseRequestId } from '../../../../lib/protocol/reverse-request-id';
import type { ExchangeGateway } from '../../../../lib/exchange-client/exchange-gateway';
import type { ExchangeReconciler } from '../../../../lib/exchange-client/exchange-reconciler';
import type { CallerPages } from '../exchange-legs/leg-types';
import { urlReplyAction } from '../../../../lib/questions/caller-url';
import { callLogger } from './call-log';
import type { IncomingMessage } from './incoming-message';

export interface ResponseIntakeDeps {
  legacy: LegacyStore;
  /** The exchanges' record: a round's deadline is read from it. */
  exchanges: ExchangeStore;
  gateway: ExchangeGateway;
  reconciler: ExchangeReconciler;
  limits: Pick<Limits, 'maxRoundInputBytes' | 'maxRepeatedAnswers'>;
  log: Logger;
  /** The answer page, when it is on: it takes the caller's decline of a URL-mode question. */
  callerPages?: Pick<CallerPages, 'refuseAsCaller'>;
}

/**
 * Whether a server-to-client request is the URL-mode elicitation of a question: its
 * `elicitationId` is the id of a question of its own round (lib/questions/addressing.ts
 * `questionIdOf`), which a handler's own URL elicitation never carries.
 */
const isUrlQuestion = (request: OpenRequest): boolean => {
  const params = request.message.params as { mode?: unknown; elicitationId?: unknown } | undefined;
  return (
    request.message.method === 'elicitation/create' &&
    params?.mode === 'url' &&
    typeof params.elicitationId === 'string' &&
    params.elicitationId.startsWith(`${request.exchangeId}.${request.round}.`)
  );
};

export function createResponseIntake(deps: ResponseIntakeDeps) {
  const { legacy, exchanges, gateway, reconciler, limits, log } = deps;

  /** A client's JSON-RPC response to one of our requests: one key's answer to its exchange. */
  async function takeResponse(session: LegacySession, message: IncomingMessage): Promise<void> {
    const id = message.id;
    const request = isReverseRequestId(id) ? await legacy.findRequest(session.id, id) : undefined;
    // An error answer is an answer too (a -32601 says the client cannot do it): the handler decides.
    const response = message.error !== undefined ? { error: message.error } : message.result;
    // The same answer again (a client retrying its POST) may be delivered again (below). Anything
    // else settled is dropped. The duplicate-answer rule's pre-check, on the answer's canonical form.
    const repeat =
      request?.status === 'answered' && repeatOf(canonicalJson(request.response), canonicalJson(response)) === 'same';
    if (!request || (request.status !== 'open' && !repeat)) {
      log.info(
        { ...sessionRef(session.id), responseId: id },
        'response dropped: unknown or already settled request id',
      );
      return;
    }
    logExchange(request.exchangeId);
    if (isUrlQuestion(request)) return takeUrlReply(session, request, response);
    tagLegExchange(request.exchangeId, request.round + 1);
    await linkToExchangeTrace(() => exchanges.readTraceContext(request.exchangeId));
    // The deadline's fast pre-check (the workflow is its authority, lib/exchange/round-deadline.ts):
    // an answer after it is refused before anything is settled or signalled; the stream carries the
    // expiry (and withdraws this request) once the workflow records it.
    const ask = await exchanges.readRound(request.exchangeId, request.round);
    if (isLate(ask?.deadlineAt?.getTime(), Date.now())) {
      callLogger(log, request.exchangeId, request.round).info(
        { ...sessionRef(session.id), key: request.key },
        'response dropped: the round deadline has passed',
      );
      return;
    }
    // A repeat is counted first (in Postgres, across replicas) and dropped past its budget, before
    // anything asks the workflow (a query can replay a whole history); then it is delivered again
    // only when the workflow says it lacks the answer (the authority on what it took:
    // answer-redelivery.ts).
    if (repeat && !(await legacy.countRepeat(request.id))) {
      log.info(
        { ...sessionRef(session.id), responseId: id, limit: limits.maxRepeatedAnswers },
        'response dropped: answer repeated too often',
      );
      return;
    }
    if (repeat && (await gateway.answerStanding(request.exchangeId, request.round, request.key)) !== 'missing') {
      log.info({ ...sessionRef(session.id), responseId: id }, 'response repeated: the exchange has this answer');
      return;
    }
    // One round's answers travel to the workflow together: refuse the one that would make them too
    // large before anything is settled, so the request stays open for a smaller answer.
    if (!repeat) {
      const size = roundAnswersBytes(
        response,
        await legacy.answersOfRound(request.exchangeId, request.round),
        request.key,
      );
      if (overRoundInputBudget(size, limits.maxRoundInputBytes))
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
    if (delivered && !repeat && ask) apiMetrics.answerSignalled('legacy', ask.recordedAt);
    if (delivered && repeat) apiMetrics.answerRedelivered('legacy');
    // No workflow took it: it closed, and if it recorded no ending (terminated), one is recorded now for the stream.
    if (!delivered) await reconciler.reconcile(request.exchangeId);
    callLogger(log, request.exchangeId, request.round).info(
      { ...sessionRef(session.id), key: request.key },
      'answer signalled',
    );
  }

  /**
   * A reply to the URL-mode elicitation of a question addressed to the caller (legacy-projection.ts):
   * `accept` is consent only (the answer comes from the page); a decline or cancel is the caller's
   * answer to the question, claimed as the page claims one (durable, re-signalled if its signal is
   * lost) before the request is settled, so an API that dies between the two loses nothing: the
   * client's repeat finds the request open, and the question refuses a second answer from the caller.
   */
  async function takeUrlReply(
    session: LegacySession,
    request: OpenRequest & { status: string },
    response: unknown,
  ): Promise<void> {
    if (request.status !== 'open') return;
    const action = urlReplyAction(response) ?? 'cancel';
    const questionId = String((request.message.params as { elicitationId?: unknown }).elicitationId);
    if (action !== 'accept') await deps.callerPages?.refuseAsCaller(questionId, action);
    await legacy.answerRequest(request.id, response);
    callLogger(log, request.exchangeId, request.round).info(
      { ...sessionRef(session.id), key: request.key, action },
      "the caller's client replied to a question's URL elicitation",
    );
  }

  /**
   * A client's notification: `notifications/cancelled` for one of its calls cancels that exchange,
   * unless the call was answered already with the pending result: a cancel of a request that
   * completed is ignored (as the spec allows), so a client whose timer fires late (the 1.x SDK's,
   * under LangChain's tool timeout) does not withdraw the question the result told it to await.
   */
  async function takeNotification(session: LegacySession, message: IncomingMessage): Promise<void> {
    if (message.method !== 'notifications/cancelled') return;
    const params = (message.params ?? {}) as { requestId?: unknown; reason?: unknown };
    const call = await legacy.findCall(session.id, JSON.stringify(params.requestId ?? null));
    if (!call || call.detachedThrough !== undefined) return;
    logExchange(call.exchangeId);
    const reason = typeof params.reason === 'string' ? params.reason : undefined;
    await gateway.cancel(call.exchangeId, reason);
    callLogger(log, call.exchangeId).info(sessionRef(session.id), 'exchange cancelled by the client');
  }

  return {
    /** Takes a message without a method (a response) or without an id (a notification). */
    take: (session: LegacySession, message: IncomingMessage): Promise<void> =>
      message.method === undefined ? takeResponse(session, message) : takeNotification(session, message),
  };
}

export type ResponseIntake = ReturnType<typeof createResponseIntake>;
