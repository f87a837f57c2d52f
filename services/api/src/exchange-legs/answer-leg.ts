/**
 * A retry that answers an ask: what the records of its round and the next say it is
 * (`classifyAnswer`: stale, a retry of the same answers, different answers, late, or fresh), and
 * for fresh answers, the signal that delivers them once and the wait for the round they lead to.
 * Sending the same leg again does not advance the exchange twice: it finds the next round already
 * recorded and gets its outcome; different answers to a round already answered are refused. The
 * refusals here are fast pre-checks of rules the workflow owns (lib/exchange: the deadline,
 * duplicates, the round-input budget), made before anything is signalled so history stays clean.
 *
 * A retry whose answers begin the call's task (`taskBegins: 'after-input'`) writes the task's row
 * before the answers are signalled, so tasks/get finds it at once, and is answered with the task.
 * A leg that comes back for an outcome still not ready may carry its answers again
 * (`redeliverAnswers`), when the workflow says it lacks them.
 */
import type { RoundRecord } from '../../../../lib/exchange/types';
import type { Watch } from '../../../../lib/db/outcome-waiter';
import { exchangeLogger } from '../../../../lib/log';
import { apiMetrics } from '../../../../lib/metrics/api-metrics';
import { exchangeExpired } from '../../../../lib/protocol/exchange-errors';
import { fromOutcome, invalidRequestState } from '../../../../lib/protocol/error-catalog';
import { asksSomeoneElse } from '../../../../lib/exchange-rules/addressed-leg';
import type { RequestStateClaims } from '../../../../lib/state/request-state';
import { workflowIdFor } from '../../../../lib/exchange-client/workflow-messages';
import { redeliverIfMissing } from '../../../../lib/exchange-client/answer-redelivery';
import { taskModeOf, type TaskRows } from '../tasks/task-ids';
import {
  answeredDifferently,
  answeredWith,
  awaitedWith,
  classifyAnswer,
} from '../../../../lib/exchange-rules/leg-rules';
import type { ExchangeLeg, ExchangeLegsDeps, LegOptions, LegOutcome } from './leg-types';
import type { RoundWait } from './round-wait';
import type { ServedAsks } from './served-asks';
import { checkRoundInput } from './start-leg';
import { inStepSpan, STEP_SPANS } from '../../../../lib/tracing/step-span';
import { takeUrlReplies } from './url-replies';

export function createAnswerLeg(
  deps: ExchangeLegsDeps,
  taskFor: TaskRows,
  wait: RoundWait,
  served: Pick<ServedAsks, 'take'>,
) {
  const { gateway, store, reconciler, limits, log } = deps;

  /**
   * Answers the ask of `claims.round`, `watch` watching the round after it since before the read
   * that finds it unrecorded, so whatever records it after that read is heard. The ask this process
   * handed out is taken as kept (served-asks.ts); when none is kept, it is read with the round
   * after it.
   */
  async function answerLeg(
    leg: ExchangeLeg,
    claims: RequestStateClaims,
    options: LegOptions,
    watch: Watch<RoundRecord>,
  ): Promise<LegOutcome> {
    const { exchangeId, round } = claims;
    const legLog = exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId), round });
    const stale = () => {
      legLog.warn({ reason: 'no-ask' }, 'requestState rejected');
      return invalidRequestState();
    };
    // Answers that begin the call's task (its tool's task begins after its input): the task's row
    // is written once they are known to be signalled, before they are; a repeat of the same leg
    // finds the same task.
    const beginsTask = leg.taskBegins === 'after-input';
    const now = Date.now();
    // A kept ask says nothing of the round after it: that round is read once the answers are signalled.
    const kept = beginsTask ? undefined : served.take(exchangeId, round, now);
    const [ask, next] = kept
      ? [kept, undefined]
      : await inStepSpan(STEP_SPANS.readRounds, () => store.readRoundAndNext(exchangeId, round));
    // Questions for someone else; replies to the URL elicitations of the caller's own, if any.
    if (ask && asksSomeoneElse(ask)) return takeUrlReplies(leg, ask, deps.callerPages);
    const answer = classifyAnswer({ ask, next, inputResponses: leg.inputResponses, now });
    switch (answer.kind) {
      case 'stale':
        throw stale();
      case 'retry':
        if (beginsTask) return { kind: 'task', task: await taskFor(exchangeId, leg.principal.id) };
        return { kind: 'recorded', record: answer.record };
      case 'mismatch':
        throw answeredDifferently(round);
      case 'late':
        // The deadline is a rule: answers after it are refused here, before anything is signalled.
        legLog.info({ deadlineAt: answer.deadlineAt }, 'answers refused: the round deadline has passed');
        throw fromOutcome(exchangeExpired(exchangeId, round, answer.roundTimeoutMs));
      case 'fresh':
        break;
    }
    const { responses, digest } = answer;
    checkRoundInput(leg, responses, limits.maxRoundInputBytes);
    const task = beginsTask ? await taskFor(exchangeId, leg.principal.id) : undefined;
    // The ask these answers take is answered from the task's first instant: tasks/get must not
    // show it as outstanding while the workflow takes them.
    if (task && ask?.outcome.kind === 'ask')
      await deps.tasks.recordAnswered(
        exchangeId,
        round,
        Object.keys(ask.outcome.inputRequests).map((key) => ({ key, bytes: 0 })),
      );

    const delivered = await gateway.sendAnswers(exchangeId, {
      round,
      responses,
      digest,
      clientCapabilities: leg.clientCapabilities,
      ...(leg.listening ? { listening: leg.listening } : {}),
      ...(task ? { task: taskModeOf(task) } : {}),
    });
    legLog.info(
      // A task is logged by its exchange, never by its id (its client's handle on it).
      { keys: Object.keys(responses), delivered, ...(task ? { asTask: true } : {}) },
      'answers signalled',
    );
    if (delivered && ask) apiMetrics.answerSignalled(leg.era, ask.recordedAt);
    // The call is a task from here on: its client follows it with tasks/get.
    if (task) return { kind: 'task', task };
    // No workflow took them: a kept ask is checked in Postgres first, then the ending is read there.
    if (!delivered) {
      // A kept ask was not read: with no workflow to take the answers, its exchange may be gone
      // from Postgres too (deleted after it ended), which the read would have refused.
      if (kept && !(await store.readRound(exchangeId, round))) throw stale();
      // The workflow ended meanwhile: it expired (its ending is recorded), or Temporal ended it.
      const ended = (await store.readRound(exchangeId, round + 1)) ?? (await reconciler.reconcile(exchangeId));
      if (ended) return answeredWith(ended, digest);
    }
    // The read above found no next round after the watch began: only an announcement, or a wake-up
    // that says one may have been missed, makes the wait read. Answers to a kept ask were signalled
    // unread: the wait reads first, for a next round the answers found recorded.
    const awaited = await inStepSpan(STEP_SPANS.awaitRound, () =>
      wait.awaitRound(watch, exchangeId, round + 1, options, !kept),
    );
    return awaitedWith(awaited, digest);
  }

  /**
   * Signals this leg's answers to the ask of `round` again if they are the answers it was told to
   * come back with (`digest`), the ask is still in time, and the workflow says it lacks them.
   */
  async function redeliverAnswers(leg: ExchangeLeg, exchangeId: string, round: number, digest: string): Promise<void> {
    if (!leg.inputResponses) return;
    const [ask, next] = await store.readRoundAndNext(exchangeId, round);
    const answer = classifyAnswer({ ask, next, inputResponses: leg.inputResponses, now: Date.now() });
    if (answer.kind !== 'fresh' || answer.digest !== digest) return;
    const { responses } = answer;
    await redeliverIfMissing(gateway, log, {
      exchangeId,
      round,
      era: leg.era,
      deliver: () =>
        gateway.sendAnswers(exchangeId, {
          round,
          responses,
          digest,
          clientCapabilities: leg.clientCapabilities,
          ...(leg.listening ? { listening: leg.listening } : {}),
        }),
      countCheck: () => store.countRedeliveryCheck(exchangeId, round, limits.maxRepeatedAnswers),
    });
  }

  return { answerLeg, redeliverAnswers };
}
