/**
 * One durable multi-round-trip exchange (MCP 2026-07-28, SEP-2322), from its first leg to its
 * final result.
 *
 * The workflow owns progress and time and does no I/O: each round, an activity (a local one unless
 * the handler declared otherwise, round-activities.ts) re-runs the handler from the top with the
 * original request, the answers to the previous ask and the handler's sealed state, then records
 * the outcome in Postgres (which is how the API learns it). Between rounds the workflow waits for
 * the `answers` signal under a durable timer, so a person may take the whole round timeout to
 * answer, across restarts of every process. Rounds are capped: an ask beyond `maxRounds` ends the
 * exchange with an error instead. Which answers it takes is exchange-state.ts's, by the rules of
 * lib/exchange (the deadline, duplicates), of which the workflow is the authority.
 *
 * Beside it: its signal and query handlers (exchange-handlers.ts), what it shows in the Temporal UI
 * (visibility.ts), task mode (task-mode.ts), and the list of every compatibility gate that keeps
 * older histories replaying (compat.ts).
 */
import { CancellationScope, condition, isCancellation, log } from '@temporalio/workflow';
import { awaitedDeadline, waitingSinceOf } from '../lib/exchange-rules/round-deadline';
import type { ExchangeInput, ExchangeStatus, OutcomeError, RoundAnswers, RoundSummary } from '../lib/exchange/types';
import {
  EXCHANGE_CANCELLED,
  exchangeCancelled,
  exchangeExpired,
  roundFailed,
  roundUnrecordable,
  type CancelledBy,
} from '../lib/protocol/exchange-errors';
import { deadlineTimerSummary, questionMilestoneSummary } from '../lib/exchange/exchange-details';
import { clearsWaitOnAnswers } from './compat';
import { setUpExchangeHandlers } from './exchange-handlers';
import { initialState, mayAsk, recordRound, takeAnswers } from '../lib/exchange-rules/exchange-state';
import { expireAsk } from '../lib/exchange-rules/expired-ask';
import { expiryReachesHandler } from '../lib/questions/question-wait';
import { isUnrecordable, roundActivities, roundFailure } from './round-activities';
import { createFirstStartWitness } from './first-start';
import { createQuestionEvents } from './question-events';
import { createTaskMode } from './task-mode';
import { createVisibility } from './visibility';

export interface ExchangeResult {
  status: ExchangeStatus;
  rounds: number;
  asks: number;
}

export async function exchangeWorkflow(input: ExchangeInput): Promise<ExchangeResult> {
  const state = initialState(input.principal, input.callerPersonId, input.callerUnmatched);
  const { roundKind, runRound, recordOutcome } = roundActivities(input);
  const visibility = createVisibility(input, state);
  visibility.running(1);
  const taskMode = createTaskMode(input, state);
  const questionEvents = createQuestionEvents(input, state);
  const certainlyFirstStart = createFirstStartWitness();

  const cancel = setUpExchangeHandlers(input, state, { taskMode, visibility });

  try {
    await runRounds();
  } catch (error) {
    // An operator's cancel (the Web UI's Request Cancellation, `temporal workflow cancel`): record
    // the ending where no second cancel can interrupt it, then close as cancelled.
    if (!isCancellation(error)) throw error;
    await CancellationScope.nonCancellable(async () => {
      questionEvents.ended('question.cancelled');
      await recordEnding(state.round + 1, cancelledBy('operator'));
      await questionEvents.settled();
    });
    throw error;
  }
  await questionEvents.settled();
  return { status: state.status, rounds: state.round, asks: state.asks };

  async function runRounds(): Promise<void> {
    let answers: RoundAnswers | undefined;
    let sealedHandlerState: string | undefined;
    for (;;) {
      const round = state.round + 1;
      taskMode.watchTtl();
      let summary: RoundSummary;
      try {
        summary = await taskMode.interruptible(() =>
          runRound(round)({
            exchange: input,
            round,
            answers: answers?.responses,
            // A round reached by an expiry was reached by nobody's answers: no digest, so it stands for every leg.
            answersDigest: answers?.expired ? undefined : answers?.digest,
            ...(answers?.answeredBy ? { answeredBy: answers.answeredBy } : {}),
            ...(answers?.expired ? { expired: answers.expired } : {}),
            clientCapabilities: answers?.clientCapabilities,
            listening: answers?.listening,
            sealedHandlerState,
            mayAsk: mayAsk(state, input.maxRounds),
            ...(certainlyFirstStart() ? { firstStart: true as const } : {}),
          }),
        );
      } catch (error) {
        // A task's round interrupted by its cancel or TTL: the ending is recorded at that round
        // (first write wins, so a handler that finishes anyway cannot overwrite it).
        if (taskMode.interrupts(error))
          return recordEnding(
            round,
            taskMode.ending(() => cancelledBy(cancel.by)),
          );
        const cause = roundFailure(error);
        if (!cause) throw error;
        log.error('round could not run to completion', { exchangeId: input.exchangeId, round, cause: cause.message });
        // Nothing of the round is carried into this record, so it cannot fail the same way.
        return recordEnding(
          round,
          isUnrecordable(cause)
            ? roundUnrecordable(input.exchangeId, round, cause.message)
            : roundFailed(input.exchangeId, round),
        );
      }
      recordRound(state, summary);
      sealedHandlerState = summary.sealedHandlerState;
      if (summary.kind !== 'ask') {
        visibility.publish(round, summary);
        return;
      }

      // The deadline was set when the ask was recorded; answers signalled after it were refused by
      // the signal handlers, so whichever of timer and signal an activation applies first, only
      // answers in time are pending here.
      const deadlineAt = awaitedDeadline(summary.deadlineAt, Date.now(), input.roundTimeoutMs);
      // The wait began when the ask was recorded (an ask recorded before descriptions existed: its
      // deadline less the round timeout).
      const waitingSince = waitingSinceOf(summary.ask?.askedAt, deadlineAt, input.roundTimeoutMs);
      // The wait that applies: an addressed ask's own (`waitMs`), else the round timeout.
      const waitMs = summary.waitMs ?? input.roundTimeoutMs;
      visibility.publish(round, summary, waitingSince);
      visibility.waitFor({
        request: input.request,
        round,
        asks: state.asks,
        maxRounds: input.maxRounds,
        roundTimeoutMs: waitMs,
        waitingSince,
        deadlineAt,
        ...(summary.ask ? { ask: summary.ask } : { askKeys: summary.askKeys ?? [] }),
        ...(summary.questions ? { questions: summary.questions } : {}),
      });
      const answered = () => state.pending !== undefined || state.cancelRequested === true || taskMode.ttlReached();
      // A question's reminder and escalation come due while it waits (none for an ask of the caller).
      let done = false;
      for (const milestone of questionEvents.asked(summary)) {
        if (milestone.at >= deadlineAt) break;
        done = await condition(answered, Math.max(1, milestone.at - Date.now()), {
          summary: questionMilestoneSummary(milestone.type, milestone.key),
        });
        if (done) break;
        questionEvents.due(milestone);
      }
      if (!done)
        await condition(answered, Math.max(1, deadlineAt - Date.now()), { summary: deadlineTimerSummary(round) });
      visibility.stopWaiting();
      if (state.cancelRequested || taskMode.expired()) questionEvents.ended('question.cancelled');
      if (state.cancelRequested) return recordEnding(round + 1, cancelledBy(cancel.by));
      if (taskMode.expired())
        return recordEnding(
          round + 1,
          taskMode.ending(() => cancelledBy(cancel.by)),
        );
      if (state.pending === undefined) {
        questionEvents.ended('question.expired');
        // An ask whose questions leave their expiry to the handler runs it again with the expiry;
        // any other ends its exchange as expired.
        if (!expiryReachesHandler(summary.questions))
          return recordEnding(round + 1, exchangeExpired(input.exchangeId, round, waitMs));
        answers = expireAsk(state);
      } else {
        questionEvents.ended('question.answered');
        answers = takeAnswers(state);
        // Held answers that begin the call's task were applied by the state, not by the signal handler.
        taskMode.begin(answers.task);
      }
      // A regular round's handler may run for minutes: the exchange no longer waits on anyone.
      if (roundKind === 'regular' && clearsWaitOnAnswers()) visibility.clearWaitingSince();
      visibility.running(round + 1);
    }
  }

  /** The ending of a cancel: signalled ones carry their reason; the Temporal UI's cancel has none. */
  function cancelledBy(by: CancelledBy): OutcomeError {
    return exchangeCancelled(input.exchangeId, cancel.reason, by);
  }

  /**
   * Records an ending at `round`. If that round was recorded meanwhile (a round activity that
   * finished as the exchange was cancelled), what stands is folded in: an ending ends it; an ask
   * moves the ending to the next round.
   */
  async function recordEnding(round: number, error: OutcomeError): Promise<void> {
    for (let r = round; ; r += 1) {
      const summary = await recordOutcome(error.code)({ exchange: input, round: r, outcome: { kind: 'error', error } });
      recordRound(state, summary);
      if (summary.kind !== 'ask') {
        const by = error.code === EXCHANGE_CANCELLED ? cancelSourceOf(error) : undefined;
        visibility.publish(r, summary, undefined, by);
        return;
      }
    }
  }
}

/** Who cancelled, for an ending that is a cancel. */
function cancelSourceOf(error: OutcomeError): CancelledBy | undefined {
  return (error.data as { cancelledBy?: CancelledBy } | undefined)?.cancelledBy;
}
