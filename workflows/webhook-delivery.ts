/**
 * The delivery of one question event to every receiver: one activity per receiver, retried with
 * back-off within the worker's WEBHOOK_* bounds, each receiver apart from the others. It runs
 * beside the exchange (an abandoned child), so a receiver that is down never delays or fails an
 * exchange; when a receiver's attempts run out, or it refuses the event, the delivery records that
 * it gave up and ends normally. Workflow code: deterministic, imports types only of the activities.
 */
import { ActivityFailure, isCancellation, log, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { createActivities } from '../activities';
import type { WebhookDeliveryPlan } from '../activities/webhook-delivery-record';
import type { QuestionEvent } from '../lib/webhooks/question-event';

type Activities = ReturnType<typeof createActivities>;

/** What became of the event at each receiver, in WEBHOOK_URLS order (no URL: one may hold a credential). */
export interface WebhookDeliveryResult {
  receiver: number;
  outcome: 'delivered' | 'given_up';
}

/** The workflow id of an event's delivery: one per event, so a repeated start is a no-op. */
export const webhookWorkflowIdFor = (eventId: string) => `webhook-${eventId}`;

const bookkeeping = proxyLocalActivities<Activities>({ startToCloseTimeout: '10 seconds' });

/** The first retry waits 1 s (or the cap, if less), each next one twice as long, up to the cap. */
function attemptsOf(plan: WebhookDeliveryPlan, receiver: number) {
  return proxyActivities<Activities>({
    // The request's own bound is timeoutMs; the margin covers signing and the worker's scheduling.
    startToCloseTimeout: plan.timeoutMs + 5_000,
    retry: {
      initialInterval: Math.min(1_000, plan.maxIntervalMs),
      backoffCoefficient: 2,
      maximumInterval: plan.maxIntervalMs,
      maximumAttempts: plan.maxAttempts,
    },
    summary: `webhook to receiver ${receiver + 1}`,
  });
}

async function deliverTo(event: QuestionEvent, url: string, receiver: number, plan: WebhookDeliveryPlan) {
  try {
    await attemptsOf(plan, receiver).deliverWebhook({ event, url });
    return { receiver, outcome: 'delivered' } as const;
  } catch (error) {
    if (isCancellation(error)) throw error;
    const cause = error instanceof ActivityFailure ? (error.cause ?? error) : (error as Error);
    await bookkeeping.webhookGivenUp({ event, url, reason: cause.message });
    log.warn('webhook given up', { eventId: event.id, receiver: receiver + 1, reason: cause.message });
    return { receiver, outcome: 'given_up' } as const;
  }
}

export async function webhookDeliveryWorkflow(event: QuestionEvent): Promise<WebhookDeliveryResult[]> {
  const plan = await bookkeeping.webhookDeliveryPlan();
  return Promise.all(plan.urls.map((url, receiver) => deliverTo(event, url, receiver, plan)));
}
