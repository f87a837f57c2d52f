/**
 * Question webhooks: the event bots receive and what a receiver needs to trust it
 * (`verifyWebhook`, Standard Webhooks signatures). Delivery itself is the worker's
 * (workflows/webhook-delivery.ts, activities/deliver-webhook.ts).
 */
export {
  QUESTION_EVENT_TYPES,
  questionEvent,
  questionEventId,
  type QuestionEvent,
  type QuestionEventAnswer,
  type QuestionEventType,
} from './question-event';
export { signWebhook, type WebhookSignatureHeaders } from './signature';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifiedWebhook,
  type VerifyOptions,
  type WebhookHeaders,
  type WebhookRefusal,
} from './verify';
export { SECRET_PREFIX } from './webhook-secret';
