/**
 * A session's JSON-RPC requests, for both legacy transports: a method that starts no
 * exchange is answered at once; `tools/call`, `prompts/get` and `resources/read` are recorded as
 * the session's call (its stream named by the transport) before their exchange starts, so the same
 * request id sent again re-attaches to that call instead of starting a second exchange. Owns the
 * budget of running exchanges per session (MAX_RUNNING_EXCHANGES_PER_SESSION). A call that runs as
 * a task (2025-11-25) is recorded the same way, its exchange started as a task, and answered with
 * its `CreateTaskResult` at once (again for a repeat of its request id); a running task's
 * tasks/result answers on a stream of its own. An identical call that joins a running one
 * (REATTACH_IDENTICAL_CALLS_MS, where calls can be pending) waits with it (legacy-await-answer.ts).
 */
import { randomUUID } from 'node:crypto';
import type { LegacyCall, LegacySession, LegacyStore } from '../../../../lib/db/legacy-store';
import type { Principal } from '../../../../lib/exchange/principal';
import type { Listening } from '../../../../lib/exchange/types';
import { logExchange } from '../../../../lib/log';
import type { Limits } from '../../../../lib/config';
import { capacityExceeded, requestInProgress } from '../../../../lib/protocol/error-catalog';
import type { IncomingMessage } from './incoming-message';
import type { LegacyMethods } from './legacy-methods';
import type { TaskMethodAnswer } from './legacy-task-methods';
import { createTaskResult } from './legacy-task-view';
import type { AwaitedCall, CallPending } from './legacy-await-answer';

export interface RequestIntakeDeps {
  methods: LegacyMethods;
  legacy: LegacyStore;
  limits: Pick<Limits, 'maxRunningExchangesPerSession' | 'capacityRetryAfterS'>;
}

/**
 * A request's answer: a result to send now, or the call whose stream carries it (with `pending`,
 * answered with the pending result if it waits too long: pending-call.ts), or a stream that
 * carries another request's call (a running task's, or a pending call's: legacy-await-answer.ts).
 */
export type RequestAnswer =
  | { kind: 'result'; result: Record<string, unknown> }
  | { kind: 'call'; call: LegacyCall; listening: Listening; pending?: CallPending }
  | Extract<TaskMethodAnswer, { kind: 'task-stream' }>
  | Extract<AwaitedCall, { kind: 'await-stream' }>;

export function createRequestIntake(deps: RequestIntakeDeps) {
  const { methods, legacy, limits } = deps;

  /** The call already recorded under this request id, served as it was first recorded (a task: with its task). */
  async function reattach(existing: LegacyCall, listening: Listening, pending?: CallPending): Promise<RequestAnswer> {
    logExchange(existing.exchangeId);
    const task = await methods.taskOfCall(existing.exchangeId);
    if (task) return { kind: 'result', result: createTaskResult(task) };
    return {
      kind: 'call',
      call: existing,
      listening: { ...listening, progressToken: existing.progressToken },
      ...(pending ? { pending } : {}),
    };
  }

  /**
   * Answers `message` (a request with an id) of `session`, sent by `caller`. A call's stream is
   * `streamIdFor` its new exchange, and its delivery is first leased to `owner` (the connection
   * that will deliver it).
   */
  async function answer(
    session: LegacySession,
    caller: Principal,
    message: IncomingMessage,
    streamIdFor: (exchangeId: string) => string,
    owner: string,
  ): Promise<RequestAnswer> {
    const outcome = await methods.call(session, caller, message.method!, message.params);
    if (outcome.kind !== 'call') return outcome;
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
      if (existing) return reattach(existing, outcome.listening, outcome.pending);
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
      return reattach(existing, outcome.listening, outcome.pending);
    }
    try {
      if (outcome.task) {
        const task = await methods.startTask(outcome.leg, exchangeId, outcome.task);
        return { kind: 'result', result: createTaskResult(task) };
      }
      const { joins } = await methods.start(outcome.leg, exchangeId);
      if (joins !== undefined) {
        // An identical call still runs: this one waits with it, and nobody is asked again.
        await legacy.deleteCall(exchangeId);
        logExchange(joins);
        return await methods.awaitJoined(session, joins, outcome.leg.request.target);
      }
    } catch (error) {
      await legacy.deleteCall(exchangeId).catch(() => undefined);
      throw error;
    }
    return {
      kind: 'call',
      call,
      listening: outcome.listening,
      ...(outcome.pending ? { pending: outcome.pending } : {}),
    };
  }

  return { answer, startsExchange: methods.startsExchange, answersOnStream: methods.answersOnStream };
}

export type RequestIntake = ReturnType<typeof createRequestIntake>;
