/**
 * What Temporal says of an exchange's workflow tasks: whether they keep failing, since when and
 * why, read from DescribeWorkflowExecution (the pending task's attempt) and the end of the history
 * (the workflow-task failures since the last task that completed); and the workflow's termination,
 * for the stuck workflow sweep (stuck-workflow-sweeper.ts) and the reconciler that records what
 * the termination meant. Reads failures through the service's data converter: the worker encodes
 * their messages (lib/payload-codec/failure-converter.ts), bound to the namespace alone.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { decodeOptionalFailureToOptionalError } from '@temporalio/common/lib/internal-non-workflow';
import { ApplicationFailure } from '@temporalio/common';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import { classifyWorkflowTaskFailure, errorTypeOfStack, type StuckCause } from '../exchange/stuck-causes';
import { exchangeIdOfWorkflow, WORKFLOW_TYPE, workflowIdFor } from './workflow-messages';

const EVENT = temporal.api.enums.v1.EventType;
const CAUSE = temporal.api.enums.v1.WorkflowTaskFailedCause;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** Events read back from the end of a history, a page at a time, before giving up on finding where the failures began. */
const PAGE_SIZE = 100;
const MAX_PAGES = 5;

export type WorkflowTaskState =
  | { state: 'closed' }
  | { state: 'running' }
  /** Its workflow tasks fail: since `failingSince` (epoch ms), this is attempt `attempt`, for `cause`. */
  | { state: 'failing'; attempt: number; failingSince: number; cause: StuckCause };

export interface WorkflowTaskProbe {
  /** Where the exchange's workflow tasks stand; NOT_FOUND reads as closed. */
  inspect(exchangeId: string): Promise<WorkflowTaskState>;
  /** Terminates the workflow with `reason`; false when it was no longer running. */
  terminate(exchangeId: string, reason: string): Promise<boolean>;
  /** The reason a terminated workflow was terminated with, if it was. */
  terminationReason(exchangeId: string): Promise<string | undefined>;
  /**
   * Running exchanges of this task queue whose workflow tasks Temporal itself reports failing (its
   * `TemporalReportedProblems` search attribute, set after a few failures in a row), at most
   * `limit`: found by one visibility query however many exchanges wait on people.
   */
  reported(limit: number): Promise<string[]>;
}

/** Temporal's own mark of a workflow whose tasks keep failing (the Web UI's "task failures" view reads it too). */
export const reportedProblemsQuery = (taskQueue: string) =>
  `WorkflowType = ${JSON.stringify(WORKFLOW_TYPE)} AND TaskQueue = ${JSON.stringify(taskQueue)} AND ` +
  'ExecutionStatus = "Running" AND TemporalReportedProblems IN ("category=WorkflowTaskFailed")';

const enumName = (value: unknown): string =>
  typeof value === 'number' ? (CAUSE[value] ?? String(value)) : String(value ?? '');

export function createWorkflowTaskProbe(client: Client, taskQueue: string): WorkflowTaskProbe {
  const namespace = client.options.namespace;

  /** Pages of the history, newest event first. */
  async function* reversed(workflowId: string, pageSize: number): AsyncGenerator<HistoryEvent> {
    let nextPageToken: Uint8Array | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const reply = await client.workflowService.getWorkflowExecutionHistoryReverse({
        namespace,
        execution: { workflowId },
        maximumPageSize: pageSize,
        ...(nextPageToken ? { nextPageToken } : {}),
      });
      yield* reply.history?.events ?? [];
      if (!reply.nextPageToken?.length) return;
      nextPageToken = reply.nextPageToken;
    }
  }

  /** Temporal's cause and the failure's error type (decoded; undefined when the failure cannot be read here). */
  async function failureOf(event: HistoryEvent) {
    const attributes = event.workflowTaskFailedEventAttributes!;
    let errorType: string | undefined;
    let message: string | undefined;
    try {
      const error = await decodeOptionalFailureToOptionalError(client.options.loadedDataConverter, attributes.failure);
      if (error instanceof ApplicationFailure && error.type) errorType = error.type;
      else errorType = errorTypeOfStack(error?.stack);
      message = error?.message;
    } catch {
      // Encoded under a key this process lacks: Temporal's cause alone classifies it.
    }
    return { cause: enumName(attributes.cause), errorType, message };
  }

  return {
    async inspect(exchangeId) {
      const workflowId = workflowIdFor(exchangeId);
      let description;
      try {
        description = await client.workflow.getHandle(workflowId).describe();
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return { state: 'closed' };
        throw error;
      }
      const status = description.status.name;
      if (status !== 'RUNNING' && status !== 'PAUSED') return { state: 'closed' };
      const attempt = description.raw.pendingWorkflowTask?.attempt ?? 0;
      if (attempt <= 1) return { state: 'running' };
      // Back from the end to the last task that completed: the newest failure says why, the oldest since when.
      let newest: HistoryEvent | undefined;
      let oldest: HistoryEvent | undefined;
      for await (const event of reversed(workflowId, PAGE_SIZE)) {
        if (event.eventType === EVENT.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) break;
        if (event.eventType !== EVENT.EVENT_TYPE_WORKFLOW_TASK_FAILED) continue;
        newest ??= event;
        oldest = event;
      }
      // Retried without a failure recorded (its workers died holding it, a timeout): not this sweep's to end.
      if (!newest || !oldest) return { state: 'running' };
      const failingSince = optionalTsToMs(oldest.eventTime) ?? Date.now();
      return { state: 'failing', attempt, failingSince, cause: classifyWorkflowTaskFailure(await failureOf(newest)) };
    },

    async terminate(exchangeId, reason) {
      try {
        await client.workflow.getHandle(workflowIdFor(exchangeId)).terminate(reason);
        return true;
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      }
    },

    async reported(limit) {
      const found: string[] = [];
      for await (const execution of client.workflow.list({
        query: reportedProblemsQuery(taskQueue),
        pageSize: limit,
      })) {
        const exchangeId = exchangeIdOfWorkflow(execution.workflowId);
        if (exchangeId !== undefined) found.push(exchangeId);
        if (found.length >= limit) break;
      }
      return found;
    },

    async terminationReason(exchangeId) {
      for await (const event of reversed(workflowIdFor(exchangeId), 1)) {
        return event.workflowExecutionTerminatedEventAttributes?.reason ?? undefined;
      }
      return undefined;
    },
  };
}
