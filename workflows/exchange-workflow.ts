/**
 * One durable multi-round-trip exchange (MCP 2026-07-28, SEP-2322), from its first leg to its
 * final result.
 *
 * The workflow owns progress and time and does no I/O: each round, an activity (a local one unless
 * the handler declared otherwise) re-runs the handler from the top with the original request, the
 * answers to the previous ask and the handler's sealed state, then records the outcome in Postgres
 * (which is how the API learns it). Between rounds the
 * workflow waits for the `answers` signal under a durable timer, so a person may take the whole
 * round timeout to answer, across restarts of every process. Rounds are capped: an ask beyond
 * `maxRounds` ends the exchange with an error instead.
 *
 * It says what it is doing in the Temporal UI: its current details (Markdown, exchange-details.ts)
 * say which round runs, or what the exchange waits for and since when, or how it ended; its timers
 * and activities carry summaries ("round 2 deadline", "round 2: deploy_service", "record ending:
 * expired"); `WaitingSince` is set while it waits for answers. None of it is a new command in
 * an exchange's history, except the clearing of `WaitingSince` when the answers to a regular
 * round arrive, which `patched` gates so that exchanges started before it replay unchanged.
 *
 * A task (the Tasks extension, SEP-2663) is the same exchange with a `TaskMode`: from its input
 * when the call became a task at once, or from the answers that turned an MRTR exchange into one.
 * In task mode a cancel or the task's TTL interrupts a running round (its activity is cancelled
 * and the handler's `ctx.signal` aborted) instead of waiting for it, and the TTL is a durable timer
 * that ends the task if it still runs. Only a workflow in task mode issues these commands, and no
 * exchange started before tasks existed is in task mode, so their histories replay unchanged.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  isCancellation,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  TemporalFailure,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import type {
  ExchangeInput,
  ExchangeStatus,
  OutcomeError,
  RoundAnswers,
  RoundSummary,
  TaskMode,
} from '../lib/exchange/types';
import {
  EXCHANGE_CANCELLED,
  exchangeCancelled,
  exchangeExpired,
  roundFailed,
  roundUnrecordable,
  taskExpired,
  type CancelledBy,
} from '../lib/protocol/exchange-errors';
import {
  acceptAnswers,
  acceptKeyAnswer,
  answerStanding,
  initialState,
  mayAsk,
  recordRound,
  requestCancel,
  takeAnswers,
  type AheadPolicy,
} from './exchange-state';
import { answersSignal, answerStandingQuery, cancelSignal, keyAnswerSignal, progressQuery } from './messages';
import { awaitedDeadline, waitingSinceOf } from '../lib/exchange/round-deadline';
import { EXCHANGE_ROUND, EXCHANGE_STATUS, WAITING_SINCE } from '../lib/exchange/search-attributes';
import {
  deadlineTimerSummary,
  endedDetails,
  endingActivitySummary,
  roundActivitySummary,
  runningDetails,
  waitingDetails,
  type WaitingView,
} from '../lib/exchange/exchange-details';

type Activities = ReturnType<typeof createActivities>;

// Handler failures, and handlers that run past their time bound, become outcomes inside the
// activity, and values that can never be stored fail it as non-retryable; what reaches Temporal's
// retry is infrastructure trouble (Postgres down, a worker killed mid-round, every worker stopped
// for a deploy), which is worth waiting out without a limit.
const retry = { initialInterval: '250 milliseconds', backoffCoefficient: 2, maximumInterval: '15 seconds' };

// A round runs as a local activity unless its handler declared otherwise: inside the workflow task
// that decides it, with no task-queue round trip and no activity events, bounded by
// LOCAL_HANDLER_TIMEOUT_MS (at most 50 s, under this minute). A worker that dies mid-round is
// noticed when that workflow task times out (10 s), and the task runs the round again elsewhere.
// Retry backoffs past a few seconds wait on a durable timer instead of holding the workflow task.
const local = { localRetryThreshold: '5 seconds', retry } as const;
const LOCAL_ROUND = { startToCloseTimeout: '1 minute', ...local } as const;
// A handler that declared `roundActivity: 'regular'` may take HANDLER_TIMEOUT_MS (under these
// 3 minutes): its rounds heartbeat every second, so a worker that dies is noticed after the
// heartbeat timeout, not the start-to-close timeout.
const REGULAR_ROUND = { startToCloseTimeout: '3 minutes', heartbeatTimeout: '10 seconds', retry } as const;
const LOCAL_ENDING = { startToCloseTimeout: '30 seconds', ...local } as const;
const REGULAR_ENDING = { startToCloseTimeout: '30 seconds', retry } as const;

/**
 * The activities of one command, with its summary for the event history. A proxy holds only its
 * options (it schedules nothing until called), so one per call costs nothing and replays the same.
 */
function activitiesFor(kind: 'local' | 'regular', options: object, summary: string) {
  return kind === 'local'
    ? proxyLocalActivities<Activities>({ ...options, summary })
    : proxyActivities<Activities>({ ...options, summary });
}

/**
 * Gates the one command the UI metadata added: clearing `WaitingSince` when the answers to a
 * regular round arrive. A local round's own record clears it in the same workflow task.
 */
const CLEAR_WAIT_ON_ANSWERS = 'clear-waiting-since-on-answers';

/**
 * Gates holding answers that arrive before, in the workflow's view, their round has asked (a worker
 * that died after a local round recorded its ask, exchange-state.ts). Workflows that dropped such
 * answers before this existed replay as they ran; the marker is written only where answers arrive early.
 */
const HOLD_ANSWERS_AHEAD = 'hold-answers-ahead';

/** The type of the activity failure `UNRECORDABLE` (activities/failure-class.ts); the bundle cannot import it. */
const UNRECORDABLE = 'UnrecordableOutcome';

/**
 * Why a round's activity failed for good, or undefined when `error` is no such failure (a cancel,
 * which ends the exchange as cancelled). A regular activity's failure arrives as an
 * `ActivityFailure` around its cause; a local activity's arrives as the cause itself.
 */
function roundFailure(error: unknown): Error | undefined {
  if (isCancellation(error)) return undefined;
  if (error instanceof ActivityFailure) return error.cause ?? error;
  return error instanceof TemporalFailure ? error : undefined;
}

export interface ExchangeResult {
  status: ExchangeStatus;
  rounds: number;
  asks: number;
}

export async function exchangeWorkflow(input: ExchangeInput): Promise<ExchangeResult> {
  const state = initialState();
  // Chosen once, from the input, so every replay makes the same choice. An exchange started before
  // the choice existed (no `roundActivity`) keeps the regular activities its history holds.
  const roundKind = input.roundActivity === 'local' ? 'local' : 'regular';
  const endingKind = input.roundActivity === undefined ? 'regular' : 'local';
  const runRound = (round: number) =>
    activitiesFor(
      roundKind,
      roundKind === 'local' ? LOCAL_ROUND : REGULAR_ROUND,
      roundActivitySummary(round, input.request.target),
    ).runRound;
  const recordOutcome = (errorCode: number) =>
    activitiesFor(endingKind, endingKind === 'local' ? LOCAL_ENDING : REGULAR_ENDING, endingActivitySummary(errorCode))
      .recordOutcome;

  /** What the current details say while a round waits for its answers (the keys answered so far change them). */
  let waiting: Omit<WaitingView, 'answeredKeys'> | undefined;
  const showWaiting = () => {
    if (!waiting) return;
    const answered = state.partial?.round === waiting.round ? Object.keys(state.partial.responses) : [];
    setCurrentDetails(waitingDetails({ ...waiting, ...(answered.length ? { answeredKeys: answered } : {}) }));
  };
  setCurrentDetails(runningDetails(input.request, 1, Date.now()));

  /** Set once the exchange is a task: from its input, or from the answers that made it one. */
  let task: TaskMode | undefined = input.task;
  /** The task's TTL has passed: it ends now, whatever it was doing. */
  let ttlReached = false;
  let ttlTimer = false;
  /** Starts the task's TTL timer, once, when the exchange is (or has become) a task. */
  const watchTtl = () => {
    if (!task || ttlTimer) return;
    ttlTimer = true;
    sleep(Math.max(1, task.expiresAt - Date.now()), { summary: 'task TTL' }).then(
      () => (ttlReached = true),
      () => undefined, // cancelled with the workflow: it ends anyway
    );
  };
  /** What interrupts a task's round: a cancel, or its TTL. */
  const interrupted = () => state.cancelRequested === true || ttlReached;

  const ahead: AheadPolicy = { allowed: () => patched(HOLD_ANSWERS_AHEAD), lastRound: input.maxRounds };
  setHandler(
    answersSignal,
    (answers: RoundAnswers) => {
      const verdict = acceptAnswers(state, answers, ahead);
      // Answers to an MRTR round whose tool's task begins after its input: the rest is a task.
      if (verdict === 'accepted' && answers.task && !task) task = answers.task;
      if (verdict === 'held')
        log.info('answers held until their round asks', { exchangeId: input.exchangeId, round: answers.round });
      else if (verdict !== 'accepted')
        log.info('answers ignored', { exchangeId: input.exchangeId, round: answers.round, verdict });
    },
    { description: 'The answers to an ask (a 2026-07-28 retry with inputResponses)' },
  );
  setHandler(
    keyAnswerSignal,
    (answer) => {
      const verdict = acceptKeyAnswer(state, answer, ahead);
      if (verdict === 'held')
        log.info('answer held until its round asks', {
          exchangeId: input.exchangeId,
          round: answer.round,
          key: answer.key,
        });
      else if (verdict !== 'accepted')
        log.info('answer ignored', { exchangeId: input.exchangeId, round: answer.round, key: answer.key, verdict });
      else if (state.pending === undefined) showWaiting();
    },
    { description: "One answer of a handshake-era client: its response to one of the ask's server-to-client requests" },
  );
  let cancelReason: string | undefined;
  let cancelBy: CancelledBy = 'client';
  setHandler(
    cancelSignal,
    ({ reason, by }) => {
      cancelReason = reason;
      cancelBy = by ?? 'client';
      requestCancel(state);
    },
    { description: 'The client withdrew its request, or an operator cancelled the exchange through the admin API' },
  );
  setHandler(progressQuery, () => ({
    round: state.round,
    asks: state.asks,
    waitingForRound: state.awaiting,
    status: state.status,
  }));
  setHandler(answerStandingQuery, ({ round, key }) => answerStanding(state, round, key), {
    description:
      'Whether the answers to a round (or one key of its ask) reached the exchange: the API asks before delivering them again',
  });

  try {
    await runRounds();
  } catch (error) {
    // An operator's cancel (the Web UI's Request Cancellation, `temporal workflow cancel`): record
    // the ending where no second cancel can interrupt it, then close as cancelled.
    if (!isCancellation(error)) throw error;
    await CancellationScope.nonCancellable(() => recordEnding(state.round + 1, cancelledBy('operator')));
    throw error;
  }
  return { status: state.status, rounds: state.round, asks: state.asks };

  async function runRounds(): Promise<void> {
    let answers: RoundAnswers | undefined;
    let sealedHandlerState: string | undefined;
    for (;;) {
      const round = state.round + 1;
      watchTtl();
      let summary: RoundSummary;
      try {
        summary = await interruptible(() =>
          runRound(round)({
            exchange: input,
            round,
            answers: answers?.responses,
            answersDigest: answers?.digest,
            clientCapabilities: answers?.clientCapabilities,
            listening: answers?.listening,
            sealedHandlerState,
            mayAsk: mayAsk(state, input.maxRounds),
          }),
        );
      } catch (error) {
        // A task's round interrupted by its cancel or TTL: the ending is recorded at that round
        // (first write wins, so a handler that finishes anyway cannot overwrite it).
        if (task && interrupted() && isCancellation(error)) return recordEnding(round, taskEnding(task));
        const cause = roundFailure(error);
        if (!cause) throw error;
        log.error('round could not run to completion', { exchangeId: input.exchangeId, round, cause: cause.message });
        const unrecordable = cause instanceof ApplicationFailure && cause.type === UNRECORDABLE;
        // Nothing of the round is carried into this record, so it cannot fail the same way.
        return recordEnding(
          round,
          unrecordable
            ? roundUnrecordable(input.exchangeId, round, cause.message)
            : roundFailed(input.exchangeId, round),
        );
      }
      recordRound(state, summary);
      sealedHandlerState = summary.sealedHandlerState;
      if (summary.kind !== 'ask') {
        publish(round, summary);
        return;
      }

      // The deadline was set when the ask was recorded; answers signalled after it were refused by
      // the signal handlers, so whichever of timer and signal an activation applies first, only
      // answers in time are pending here.
      const deadlineAt = awaitedDeadline(summary.deadlineAt, Date.now(), input.roundTimeoutMs);
      // The wait began when the ask was recorded (an ask recorded before descriptions existed: its
      // deadline less the round timeout).
      const waitingSince = waitingSinceOf(summary.ask?.askedAt, deadlineAt, input.roundTimeoutMs);
      publish(round, summary, waitingSince);
      waiting = {
        request: input.request,
        round,
        asks: state.asks,
        maxRounds: input.maxRounds,
        roundTimeoutMs: input.roundTimeoutMs,
        waitingSince,
        deadlineAt,
        ...(summary.ask ? { ask: summary.ask } : { askKeys: summary.askKeys ?? [] }),
      };
      showWaiting();
      await condition(
        () => state.pending !== undefined || state.cancelRequested === true || ttlReached,
        Math.max(1, deadlineAt - Date.now()),
        { summary: deadlineTimerSummary(round) },
      );
      waiting = undefined;
      if (state.cancelRequested) return recordEnding(round + 1, cancelledBy(cancelBy));
      if (task && ttlReached) return recordEnding(round + 1, taskEnding(task));
      if (state.pending === undefined)
        return recordEnding(round + 1, exchangeExpired(input.exchangeId, round, input.roundTimeoutMs));
      answers = takeAnswers(state);
      // Held answers that begin the call's task were applied by the state, not by the signal handler.
      if (answers.task && !task) task = answers.task;
      // A regular round's handler may run for minutes: the exchange no longer waits on anyone.
      if (roundKind === 'regular' && patched(CLEAR_WAIT_ON_ANSWERS))
        upsertSearchAttributes([{ key: WAITING_SINCE, value: null }]);
      setCurrentDetails(runningDetails(input.request, round + 1, Date.now()));
    }
  }

  /**
   * Runs a round so that, in task mode, a cancel or the TTL cancels it (the activity is told, and
   * the workflow stops waiting for it). Outside task mode it runs as it always has.
   */
  async function interruptible<T>(work: () => Promise<T>): Promise<T> {
    if (!task) return work();
    const scope = new CancellationScope();
    condition(interrupted).then(
      () => scope.cancel(),
      () => undefined, // cancelled with the workflow: nothing left to interrupt
    );
    return scope.run(work);
  }

  /** How an interrupted task ends: cancelled, or expired at its TTL. */
  function taskEnding(mode: TaskMode): OutcomeError {
    return state.cancelRequested ? cancelledBy(cancelBy) : taskExpired(input.exchangeId, mode.ttlMs);
  }

  /** The ending of a cancel: signalled ones carry their reason; the Temporal UI's cancel has none. */
  function cancelledBy(by: CancelledBy): OutcomeError {
    return exchangeCancelled(input.exchangeId, cancelReason, by);
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
        publish(r, summary, undefined, error.code === EXCHANGE_CANCELLED ? cancelledByOf(error) : undefined);
        return;
      }
    }
  }

  /** Who cancelled, for an ending that is a cancel. */
  function cancelledByOf(error: OutcomeError): CancelledBy | undefined {
    return (error.data as { cancelledBy?: CancelledBy } | undefined)?.cancelledBy;
  }

  /**
   * Tells Temporal where the exchange stands after round `round`: its search attributes (one
   * upsert, as every exchange's history has it here; `WaitingSince` set while an ask waits,
   * removed otherwise) and, once it has ended, current details that say how.
   */
  function publish(round: number, summary: RoundSummary, waitingSince?: number, cancelled?: CancelledBy): void {
    upsertSearchAttributes([
      { key: EXCHANGE_ROUND, value: round },
      { key: EXCHANGE_STATUS, value: state.status },
      { key: WAITING_SINCE, value: waitingSince === undefined ? null : new Date(waitingSince) },
    ]);
    if (summary.kind === 'ask') return;
    setCurrentDetails(
      endedDetails({
        request: input.request,
        status: state.status,
        round,
        asks: state.asks,
        maxRounds: input.maxRounds,
        roundTimeoutMs: input.roundTimeoutMs,
        ...(summary.errorCode !== undefined ? { errorCode: summary.errorCode } : {}),
        ...(cancelled ? { cancelledBy: cancelled } : {}),
        at: Date.now(),
      }),
    );
  }
}
