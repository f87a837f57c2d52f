/**
 * Starts the delivery of a question event from an exchange's workflow, without waiting for it:
 * an abandoned child, which outlives the exchange and whose failures never reach it. Its id is
 * the event's, and a closed delivery's id is never reused, so an event started twice (a retried
 * workflow task, a reset) is delivered once; that second start is a success here.
 */
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, startChild, WorkflowIdReusePolicy } from '@temporalio/workflow';
import type { QuestionEvent } from '../lib/webhooks/question-event';
import { webhookDeliveryWorkflow, webhookWorkflowIdFor } from './webhook-delivery';

/** Resolves once Temporal has started the delivery (or had started it before). */
export async function startWebhookDelivery(event: QuestionEvent): Promise<void> {
  try {
    await startChild(webhookDeliveryWorkflow, {
      args: [event],
      workflowId: webhookWorkflowIdFor(event.id),
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      staticSummary: `${event.type} ${event.question.key}`,
    });
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return;
    throw error;
  }
}
