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
}

export async function describeExchangeWorkflow(stack: FaultStack, workflowId: string): Promise<WorkflowView> {
  return stack.withTemporal(async (client) => {
    const description = await client.workflow.getHandle(workflowId).describe();
    const attribute = description.searchAttributes.ExchangeStatus;
    return { status: description.status.name, exchangeStatus: Array.isArray(attribute) ? attribute[0] : attribute };
  });
}
