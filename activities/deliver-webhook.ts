/**
 * One attempt to deliver one question event to one receiver: a signed POST, bounded in time and
 * size, that follows no redirect. It returns once the receiver answers 2xx; a failure worth
 * retrying (a timeout, a connection failure, 408, 429, 5xx) throws a retryable failure, and a
 * refusal (another 4xx, a redirect, a body that cannot fit) a non-retryable one: the delivery
 * workflow's retry policy decides what follows. Log lines name a receiver by its origin only
 * (the path of a chat incoming-webhook URL is its credential) and carry no body or secret.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Logger } from '../lib/log';
import { observeWebhookAttempt } from '../lib/metrics/webhook-metrics';
import { deliveryVerdict, retryAfterMs } from '../lib/webhooks/delivery-response';
import { eventBody } from '../lib/webhooks/event-body';
import type { QuestionEvent } from '../lib/webhooks/question-event';
import { signWebhook } from '../lib/webhooks/signature';
import type { WebhookConfig } from '../lib/webhooks/webhook-config';
import { activityAttempt, cancellationSignal } from './heartbeat';

export interface DeliverWebhookInput {
  event: QuestionEvent;
  /** One of WEBHOOK_URLS. */
  url: string;
}

/** How a log line names a receiver: its origin, never its path or query. */
export const receiverOrigin = (url: string) => (URL.canParse(url) ? new URL(url).origin : 'malformed');

export interface WebhookDeps {
  webhooks: WebhookConfig;
  log: Logger;
  /** The `User-Agent` receivers see (`durable-mcp-webhooks/<version>`). */
  userAgent: string;
}

/** The failure types the delivery workflow reads (it cannot import this module). */
export const WEBHOOK_FAILURE = { refused: 'WebhookRefused', failed: 'WebhookAttemptFailed' } as const;

const refused = (message: string) => ApplicationFailure.nonRetryable(message, WEBHOOK_FAILURE.refused);

/**
 * Why a request never got a status, without the URL: a timeout, or the network's code (undici
 * puts it in `cause`). Read by shape, not `instanceof`: fetch's errors may come from another realm.
 */
function failureReason(error: unknown): string {
  const { name, message, cause } = (error ?? {}) as { name?: unknown; message?: unknown; cause?: { code?: unknown } };
  if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
  if (typeof cause?.code === 'string') return cause.code;
  return typeof message === 'string' ? message : 'failed';
}

export function createDeliverWebhook(deps: WebhookDeps) {
  const { webhooks } = deps;
  return async function deliverWebhook({ event, url }: DeliverWebhookInput): Promise<{ status: number }> {
    const attempt = activityAttempt();
    const log = deps.log.child({
      eventId: event.id,
      eventType: event.type,
      questionId: event.question.id,
      exchangeId: event.question.exchangeId,
      receiver: receiverOrigin(url),
      attempt,
    });
    // A worker signs only for the receivers it is configured with, whatever a workflow asks.
    if (!webhooks.urls.includes(url)) {
      log.warn('webhook not sent: the receiver is not in WEBHOOK_URLS (changed since the event?)');
      throw refused('the receiver is not in WEBHOOK_URLS');
    }
    const body = eventBody(event, webhooks.maxBodyBytes);
    if (body === undefined) {
      log.warn(
        { maxBodyBytes: webhooks.maxBodyBytes },
        'webhook not sent: the event cannot fit WEBHOOK_MAX_BODY_BYTES',
      );
      throw refused('the event cannot fit WEBHOOK_MAX_BODY_BYTES');
    }
    const started = Date.now();
    const headers = {
      ...signWebhook(event.id, Math.floor(started / 1000), body, webhooks.secrets),
      'content-type': 'application/json',
      'user-agent': deps.userAgent,
    };
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(webhooks.timeoutMs), cancellationSignal()]),
      });
    } catch (error) {
      const reason = failureReason(error);
      observeWebhookAttempt('failed_attempt', Date.now() - started);
      log.warn({ reason, ms: Date.now() - started }, 'webhook attempt failed');
      throw ApplicationFailure.retryable(`the receiver could not be reached: ${reason}`, WEBHOOK_FAILURE.failed);
    }
    // What a receiver answers is not read: it says nothing the status does not, and may be large.
    await response.body?.cancel().catch(() => undefined);
    const ms = Date.now() - started;
    const { status } = response;
    const verdict = deliveryVerdict(status, retryAfterMs(response.headers.get('retry-after'), Date.now()));
    if (verdict.kind === 'delivered') {
      observeWebhookAttempt('delivered', ms);
      log.info({ status, ms }, 'webhook delivered');
      return { status };
    }
    observeWebhookAttempt('failed_attempt', ms);
    if (verdict.kind === 'refused') {
      log.warn({ status, ms }, 'webhook refused by the receiver: not tried again');
      throw refused(`the receiver answered ${status}`);
    }
    log.warn({ status, ms }, 'webhook attempt failed');
    throw ApplicationFailure.create({
      message: `the receiver answered ${status}`,
      type: WEBHOOK_FAILURE.failed,
      // A Retry-After is followed, within the back-off's cap.
      ...(verdict.afterMs !== undefined ? { nextRetryDelay: Math.min(verdict.afterMs, webhooks.maxIntervalMs) } : {}),
    });
  };
}
