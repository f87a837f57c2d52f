/**
 * What Temporal itself says about exchanges: which rounds it believes are running on a worker
 * (a started activity, or for a round run as a local activity the started workflow task that runs
 * it), and how an exchange's workflow ended and what it published.
 */
import { temporal } from '@temporalio/proto';
import type { FaultStack } from './fault-stack';

const STARTED = temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED;
const TASK_STARTED = temporal.api.enums.v1.PendingWorkflowTaskState.PENDING_WORKFLOW_TASK_STATE_STARTED;

/**
 * Running greet exchanges whose round Temporal holds as started on some worker: a started round
 * activity, or a started workflow task (where a round runs as a local activity).
 */
export async function exchangesWithStartedRound(stack: FaultStack): Promise<string[]> {
  return stack.withTemporal(async (client) => {
    const ids: string[] = [];
    for await (const execution of client.workflow.list({
      query: "McpTarget = 'greet' AND ExecutionStatus = 'Running'",
    })) {
      const description = await client.workflow.getHandle(execution.workflowId, execution.runId).describe();
      const { pendingActivities, pendingWorkflowTask } = description.raw;
      if (
        (pendingActivities ?? []).some((activity) => activity.state === STARTED) ||
        pendingWorkflowTask?.state === TASK_STARTED
      )
        ids.push(execution.workflowId);
    }
    return ids;
  });
}

export interface WorkflowView {
  status: string;
  exchangeStatus: unknown;
  exchangeRound: unknown;
}

export async function describeExchangeWorkflow(stack: FaultStack, workflowId: string): Promise<WorkflowView> {
  return stack.withTemporal(async (client) => {
    const description = await client.workflow.getHandle(workflowId).describe();
    const first = (value: unknown) => (Array.isArray(value) ? value[0] : value);
    return {
      status: description.status.name,
      exchangeStatus: first(description.searchAttributes.ExchangeStatus),
      exchangeRound: first(description.searchAttributes.ExchangeRound),
    };
  });
}

const EVENT = temporal.api.enums.v1.EventType;

/** What an exchange's history holds so far: the answers Temporal accepted, and the round results it knows. */
export interface HistoryCounts {
  /** `answers` signals (a 2026-07-28 retry's answers). */
  answerSignals: number;
  /** `keyAnswer` signals (one legacy response, or one key of a `tasks/update`). */
  keyAnswerSignals: number;
  /** `questionAnswer` signals (an answer to a question addressed to someone else, from the answer page or API). */
  questionAnswerSignals: number;
  /** Results of local activities (rounds and endings run inside a workflow task). */
  localResults: number;
  /** Results of regular activities. */
  activityResults: number;
}

export async function historyCounts(stack: FaultStack, workflowId: string): Promise<HistoryCounts> {
  const history = await stack.withTemporal((client) => client.workflow.getHandle(workflowId).fetchHistory());
  const events = history.events ?? [];
  const signals = (name: string) =>
    events.filter(
      (e) =>
        e.eventType === EVENT.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED &&
        e.workflowExecutionSignaledEventAttributes?.signalName === name,
    ).length;
  return {
    answerSignals: signals('answers'),
    keyAnswerSignals: signals('keyAnswer'),
    questionAnswerSignals: signals('questionAnswer'),
    localResults: events.filter(
      (e) =>
        e.eventType === EVENT.EVENT_TYPE_MARKER_RECORDED &&
        e.markerRecordedEventAttributes?.markerName === 'core_local_activity',
    ).length,
    activityResults: events.filter((e) => e.eventType === EVENT.EVENT_TYPE_ACTIVITY_TASK_COMPLETED).length,
  };
}

/**
 * What Temporal holds as running on a worker for this exchange: a started regular activity (its
 * started event reaches the history only when it ends, so this asks describe), a started workflow task.
 */
export async function startedOnWorker(
  stack: FaultStack,
  workflowId: string,
): Promise<{ activity: boolean; workflowTask: boolean }> {
  return stack.withTemporal(async (client) => {
    const { pendingActivities, pendingWorkflowTask } = (await client.workflow.getHandle(workflowId).describe()).raw;
    return {
      activity: (pendingActivities ?? []).some((activity) => activity.state === STARTED),
      workflowTask: pendingWorkflowTask?.state === TASK_STARTED,
    };
  });
}

/**
 * The exchange's history as the order of what matters to a window: `A` for answers Temporal took
 * (an `answers` or `keyAnswer` signal), `R` for a round's or an ending's result (a local
 * activity's marker, a regular activity's completion).
 */
export async function answersAndResults(stack: FaultStack, workflowId: string): Promise<string> {
  const history = await stack.withTemporal((client) => client.workflow.getHandle(workflowId).fetchHistory());
  return (history.events ?? [])
    .map((e) => {
      const signal = e.workflowExecutionSignaledEventAttributes?.signalName;
      if (
        e.eventType === EVENT.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED &&
        (signal === 'answers' || signal === 'keyAnswer' || signal === 'questionAnswer')
      )
        return 'A';
      if (
        (e.eventType === EVENT.EVENT_TYPE_MARKER_RECORDED &&
          e.markerRecordedEventAttributes?.markerName === 'core_local_activity') ||
        e.eventType === EVENT.EVENT_TYPE_ACTIVITY_TASK_COMPLETED
      )
        return 'R';
      return '';
    })
    .join('');
}

/** Whether, in `sequence`, the `n`th answer came before the `m`th result (or there is no `m`th result). */
export function answerBeforeResult(sequence: string, n: number, m: number): boolean {
  const nth = (letter: string, k: number) => {
    let seen = 0;
    for (let i = 0; i < sequence.length; i++) if (sequence[i] === letter && ++seen === k) return i;
    return Infinity;
  };
  return nth('A', n) < nth('R', m);
}

/**
 * What `startedOnWorker` says once the workflow task that took a signal has had a moment to
 * finish: a regular round still running with no workflow task open, if it comes to that.
 */
export async function roundStillRunning(stack: FaultStack, workflowId: string) {
  const settled = (view: { activity: boolean; workflowTask: boolean }) => view.activity && !view.workflowTask;
  let view = await startedOnWorker(stack, workflowId);
  for (let tries = 0; !settled(view) && tries < 25; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    view = await startedOnWorker(stack, workflowId);
  }
  return view;
}
