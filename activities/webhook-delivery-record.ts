/**
 * The delivery workflow's two small steps beside the attempts: what it needs of the worker's
 * configuration (the receivers and the retry bounds, which workflow code cannot read), and the
 * record of an event a receiver never got. Both run as local activities.
 */
import type { Logger } from '../lib/log';
import { observeWebhookGivenUp } from '../lib/metrics/webhook-metrics';
import type { QuestionEvent } from '../lib/webhooks/question-event';
import { receiverOrigin, type WebhookDeps } from './deliver-webhook';

/** The receivers and retry bounds of one delivery, fixed when it starts (its history keeps them). */
export interface WebhookDeliveryPlan {
  urls: string[];
  timeoutMs: number;
  maxAttempts: number;
  maxIntervalMs: number;
}

export interface WebhookGivenUpInput {
  event: QuestionEvent;
  url: string;
  /** Why the last attempt failed (the activity failure's message: a status or a network reason). */
  reason: string;
}

export function createWebhookDeliveryPlan(deps: Pick<WebhookDeps, 'webhooks'>) {
  return async function webhookDeliveryPlan(): Promise<WebhookDeliveryPlan> {
    const { urls, timeoutMs, maxAttempts, maxIntervalMs } = deps.webhooks;
    return { urls, timeoutMs, maxAttempts, maxIntervalMs };
  };
}

export function createWebhookGivenUp(deps: { log: Logger }) {
  return async function webhookGivenUp({ event, url, reason }: WebhookGivenUpInput): Promise<void> {
    observeWebhookGivenUp();
    deps.log.warn(
      {
        eventId: event.id,
        eventType: event.type,
        questionId: event.question.id,
        exchangeId: event.question.exchangeId,
        receiver: receiverOrigin(url),
        reason,
      },
      'webhook given up: the receiver will not get this event',
    );
  };
}
