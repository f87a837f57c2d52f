/**
 * `tools/call`, `prompts/get` and `resources/read`: each leg of these runs on the durable exchange
 * engine, and these are the only methods that may answer with an `InputRequiredResult`.
 */
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import type { ExchangeMethod, Listening } from '../../../../lib/exchange/types';
import { type HandlerSet } from '@durable-mcp/handlers';
import { findTool, requireHandler, identicalCallWindow } from '../../../../lib/handler-set/lookup';
import { taskBeginsFor } from '../tasks/task-policy';
import { apiMetrics } from '../../../../lib/metrics/api-metrics';
import type { RequestStateCodec } from '../../../../lib/state/request-state';
import type { ExchangeLegs } from '../exchange-legs/exchange-legs';
import { readModernCall } from './modern-call';
import { forwardRoundNotifications } from './round-notifications';
import { questionProgress } from './question-progress';
import type { CallContext } from './call-context';
import { complete, renderLeg } from './wire-result';
import { patienceOf } from '../../../../lib/exchange-rules/client-patience';
import { AWAIT_ANSWER } from '../catalog/await-answer-tool';
import type { AwaitAnswer } from './await-answer';
import type { ArgumentChecks } from '../../../../lib/handler-set/argument-checks';
import type { ModernEnvelope } from './validate-request';

/**
 * Why a leg's notification forwarding stops: its leg ended. Nothing reads it; one shared reason
 * spares every leg the DOMException (and its stack trace) that `abort()` without one creates.
 */
const LEG_ENDED = new Error('the leg ended');

export interface ExchangeMethodsDeps {
  handlers: HandlerSet;
  argumentChecks: ArgumentChecks;
  legs: ExchangeLegs;
  requestState: RequestStateCodec;
  waiter: OutcomeWaiter;
  /** How often a leg waiting on someone else's answer is told so (QUESTION_PROGRESS_EVERY_MS). */
  questionProgressEveryMs: number;
  /** A question's page, when the answer page is on: a waiting message names the caller's own question's page. */
  questionPageUrl?: (questionId: string) => string;
  /** Which result of a client's retry loop is sent as a complete one when the call still waits (PENDING_RESULT_AT_LEG). */
  pendingResultAtLeg: number;
  /** For how long after a call started an identical one joins it while it runs (REATTACH_IDENTICAL_CALLS_MS; 0: never). */
  reattachIdenticalCallsMs: number;
  /** The built-in `await_answer`, when it is served (await-answer.ts). */
  awaitAnswer?: AwaitAnswer;
}

export function createExchangeMethods(deps: ExchangeMethodsDeps) {
  const run = async (method: ExchangeMethod, params: unknown, envelope: ModernEnvelope, call: CallContext) => {
    // Read once: every step below receives this value (the leg, all of it).
    const parsed = readModernCall(method, params);
    const { request } = parsed;
    // `await_answer` joins a pending call of this caller's: no handler of its own, no exchange of its own.
    const awaited =
      method === 'tools/call' && request.target === AWAIT_ANSWER.name && deps.awaitAnswer
        ? await deps.awaitAnswer(request, call.caller.id, parsed.requestState === undefined)
        : undefined;
    if (!awaited) {
      // Only a first leg is refused for a target this deployment lacks: a later one continues an
      // exchange that runs, whose next round answers for a tool gone since it started (an
      // upstream's listing that dropped it) with the same error and ends it, instead of leaving
      // it waiting for an answer refused here until its round times out.
      if (parsed.requestState === undefined) requireHandler(deps.handlers, request);
      // Arguments the tool's inputSchema refuses are answered here: no exchange, no workflow.
      const refusal = deps.argumentChecks.refusal(request);
      if (refusal) return complete(refusal);
    }
    const tool = method === 'tools/call' ? findTool(deps.handlers, awaited?.tool ?? request.target) : undefined;
    const { idempotencyKey, ...retry } = parsed;
    const reattachWindowMs = identicalCallWindow(tool, deps.reattachIdenticalCallsMs);
    // Only tools/call may become a task (SEP-2663 "Supported Methods").
    const taskBegins = tool && !awaited ? taskBeginsFor(tool, envelope.clientCapabilities) : undefined;
    // A call that answers over MRTR gets a complete result where its client's retry loop would stop.
    const patience =
      tool && !taskBegins
        ? {
            patience: patienceOf(envelope.userAgent, deps.pendingResultAtLeg),
            longWait: awaited ? ('pending-result' as const) : (tool.longWait ?? 'pending-result'),
            tool: tool.tool.name,
            repeatReattaches: reattachWindowMs > 0,
          }
        : undefined;
    // A first leg of a call that may already run joins it: by its key, or as an identical call (one
    // that sends answers up front is not: they may lead its handler elsewhere).
    const identical = reattachWindowMs > 0 && parsed.inputResponses === undefined;
    const joins =
      patience && !awaited && parsed.requestState === undefined && (idempotencyKey || identical)
        ? { ...(idempotencyKey ? { idempotencyKey } : { reattachWindowMs }) }
        : undefined;
    const listening: Listening = { progressToken: envelope.progressToken, logLevel: envelope.logLevel };
    const listens =
      call.channel.canStream && (listening.progressToken !== undefined || listening.logLevel !== undefined);
    const stopForwarding = new AbortController();
    // A client that went away is sent nothing more: its forwarding stops now, not when the leg
    // returns, so it reads nothing more for a stream nobody reads (each read takes a connection).
    const clientLeft = () => stopForwarding.abort(LEG_ENDED);
    call.signal.addEventListener('abort', clientLeft, { once: true });
    // Waiting on someone else's answer: a leg that can be told so is told who it waits for.
    const waitingOn =
      call.channel.canStream && listening.progressToken !== undefined
        ? questionProgress(
            call.channel.notify,
            listening.progressToken,
            deps.questionProgressEveryMs,
            deps.questionPageUrl,
          )
        : undefined;
    // Notifications are best effort on this era: a failure to forward them loses no result.
    let forwarding: Promise<{ lastId: number }> | undefined;
    const leg = await deps.legs
      .run(
        {
          ...retry,
          clientCapabilities: envelope.clientCapabilities,
          principal: call.caller,
          era: 'modern',
          ...(listens ? { listening } : {}),
          ...(taskBegins ? { taskBegins } : {}),
          ...(patience ? { patience } : {}),
          ...(joins ? { joins } : {}),
          ...(awaited?.attachTo !== undefined ? { attachTo: awaited.attachTo } : {}),
          origin: {
            ...(envelope.clientInfo ? { client: envelope.clientInfo } : {}),
            protocolVersion: envelope.protocolVersion,
          },
        },
        {
          signal: call.signal,
          onRound: listens
            ? (exchangeId, round, afterEvent) => {
                forwarding = forwardRoundNotifications(
                  deps.waiter,
                  { exchangeId, round },
                  listening,
                  call.channel.notify,
                  stopForwarding.signal,
                  afterEvent,
                );
              }
            : undefined,
          ...(waitingOn ? { onQuestions: waitingOn.onQuestions } : {}),
        },
      )
      .finally(() => {
        call.signal.removeEventListener('abort', clientLeft);
        stopForwarding.abort(LEG_ENDED);
        waitingOn?.stop();
      });
    const lastEvent = (await forwarding)?.lastId;
    const rendered = renderLeg(leg, deps.requestState, lastEvent);
    if (leg.kind === 'pending') apiMetrics.stateOnlyResult(deps.handlers, method, request.target);
    // resources/read results are cacheable: they must say for how long, and to whom.
    if (method === 'resources/read' && rendered.resultType === 'complete') {
      return { ttlMs: 0, cacheScope: 'private', ...rendered };
    }
    return rendered;
  };
  type Method = (params: unknown, envelope: ModernEnvelope, call: CallContext) => Promise<Record<string, unknown>>;
  const methods: Record<ExchangeMethod, Method> = {
    'tools/call': (params, envelope, call) => run('tools/call', params, envelope, call),
    'prompts/get': (params, envelope, call) => run('prompts/get', params, envelope, call),
    'resources/read': (params, envelope, call) => run('resources/read', params, envelope, call),
  };
  return methods;
}
