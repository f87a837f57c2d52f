/**
 * Whether the round activity the workflow is about to schedule certainly never started before, so
 * the activity may skip looking for the round's record and counting its start: one Postgres round
 * trip less per round (activities/run-round.ts).
 *
 * A round's activity can have started before only in an earlier attempt of the workflow task that
 * schedules it (a worker that died mid-round; an activity's own retries say so by their attempt
 * number). Every failed or timed-out workflow task evicts its workflow from the worker's cache, so
 * the next attempt runs in a new workflow context, rebuilt from history. Hence a round scheduled in
 * any later task of the same context is a first start: every task before it in this context
 * completed. The first live task of a context is not known to be one (it may follow a failed
 * attempt), except the first task of a fresh run, whose history holds only its start and that task
 * (an attempt after it would hold that attempt's end and a new task's events too).
 *
 * Not deterministic, and used for nothing the workflow decides: it only fills an activity input
 * field, which the activity checks against its own attempt number. Replay never runs an activity,
 * and says false.
 */
import { workflowInfo } from '@temporalio/workflow';

/** WorkflowExecutionStarted, WorkflowTaskScheduled, WorkflowTaskStarted: a fresh run's first task. */
const FIRST_TASK_HISTORY_LENGTH = 3;

/** One per workflow context (call it in the workflow function): what it has seen of its own tasks. */
export function createFirstStartWitness(): () => boolean {
  /** The history length of the first task this context ran live, once it scheduled a round in one. */
  let firstLiveTask: number | undefined;
  return function certainlyFirstStart(): boolean {
    const { historyLength, unsafe } = workflowInfo();
    if (unsafe.isReplaying) return false;
    firstLiveTask ??= historyLength;
    return historyLength !== firstLiveTask || historyLength === FIRST_TASK_HISTORY_LENGTH;
  };
}
