/**
 * What a webhook receiver needs, and nothing more (the package's `durable-mcp/webhooks` export):
 * the event a question webhook carries, and `verifyWebhook` (Standard Webhooks signatures) to
 * trust it before acting on it. Building, signing and delivering events is the service's own
 * (question-event.ts, signature.ts; workflows/webhook-delivery.ts, activities/deliver-webhook.ts),
 * imported from those modules, not from here.
 */
export {
  QUESTION_EVENT_TYPES,
  type QuestionEvent,
  type QuestionEventAnswer,
  type QuestionEventType,
} from './question-event';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifiedWebhook,
  type VerifyOptions,
  type WebhookHeaders,
  type WebhookRefusal,
} from './verify';
