/**
 * The activities an exchange's workflow schedules, with their options: `runRound` (one round of
 * the handler) and `recordOutcome` (an ending the workflow records itself), each as a local or a
 * regular activity, and how their failures read. Workflow code: no I/O, imports types only of the
 * activities.
 *
 * Handler failures, and handlers that run past their time bound, become outcomes inside the
 * activity, and values that can never be stored fail it as non-retryable; what reaches Temporal's
 * retry is infrastructure trouble (Postgres down, a worker killed mid-round, every worker stopped
 * for a deploy), which is worth waiting out without a limit.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  TemporalFailure,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import { endingActivitySummary, roundActivitySummary } from '../lib/exchange/exchange-details';
import type { ExchangeInput } from '../lib/exchange/types';
import { endingKindOf, roundKindOf } from './compat';

type Activities = ReturnType<typeof createActivities>;

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
 *
 * A regular activity's task carries the workflow's priority (its caller's fairness key and its
 * handler's priority, set when the exchange started: lib/exchange/fairness.ts). The server would
 * let it inherit them; set here, they are on its ActivityTaskScheduled event and its pending
 * activity for operators to see. The start's priority is in every replay's workflow info, and
 * replay compares an activity's type and id only, so histories from before it replay unchanged.
 * A local activity runs inside the workflow task and never waits in a queue.
 */
function activitiesFor(kind: 'local' | 'regular', options: object, summary: string) {
  if (kind === 'local') return proxyLocalActivities<Activities>({ ...options, summary });
  const { priority } = workflowInfo();
  const carried = priority?.fairnessKey || priority?.priorityKey ? { priority } : {};
  return proxyActivities<Activities>({ ...options, ...carried, summary });
}

/**
 * The round and ending activities of one exchange. Their kinds are chosen once, from the input, so
 * every replay makes the same choice (an input from before the choice existed: compat.ts).
 */
export function roundActivities(input: ExchangeInput) {
  const roundKind = roundKindOf(input);
  const endingKind = endingKindOf(input);
  return {
    roundKind,
    runRound: (round: number) =>
      activitiesFor(
        roundKind,
        roundKind === 'local' ? LOCAL_ROUND : REGULAR_ROUND,
        roundActivitySummary(round, input.request.target),
      ).runRound,
    recordOutcome: (errorCode: number) =>
      activitiesFor(
        endingKind,
        endingKind === 'local' ? LOCAL_ENDING : REGULAR_ENDING,
        endingActivitySummary(errorCode),
      ).recordOutcome,
  };
}

/** The type of the activity failure `UNRECORDABLE` (activities/failure-class.ts); the bundle cannot import it. */
const UNRECORDABLE = 'UnrecordableOutcome';

/**
 * Why a round's activity failed for good, or undefined when `error` is no such failure (a cancel,
 * which ends the exchange as cancelled). A regular activity's failure arrives as an
 * `ActivityFailure` around its cause; a local activity's arrives as the cause itself.
 */
export function roundFailure(error: unknown): Error | undefined {
  if (isCancellation(error)) return undefined;
  if (error instanceof ActivityFailure) return error.cause ?? error;
  return error instanceof TemporalFailure ? error : undefined;
}

/** Whether a round's failure says its outcome can never be stored (so recording it again would fail the same way). */
export function isUnrecordable(cause: Error): boolean {
  return cause instanceof ApplicationFailure && cause.type === UNRECORDABLE;
}
