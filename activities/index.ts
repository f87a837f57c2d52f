/** The activities the worker registers: one round of an exchange, the record of an ending, and webhook delivery. */
import { createDeliverWebhook, type WebhookDeps } from './deliver-webhook';
import { createRecordOutcome } from './record-outcome';
import { createRunRound, type RoundDeps } from './run-round';
import { createWebhookDeliveryPlan, createWebhookGivenUp } from './webhook-delivery-record';

/** The worker's activities, closed over their dependencies (built once in the worker's main). */
export function createActivities(deps: RoundDeps & Omit<WebhookDeps, 'log'>) {
  return {
    runRound: createRunRound(deps),
    recordOutcome: createRecordOutcome(deps),
    deliverWebhook: createDeliverWebhook(deps),
    webhookDeliveryPlan: createWebhookDeliveryPlan(deps),
    webhookGivenUp: createWebhookGivenUp(deps),
  };
}
