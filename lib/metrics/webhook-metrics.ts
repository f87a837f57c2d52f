/**
 * The worker's webhook metrics: each delivery attempt, timed, and each event a receiver never got.
 * Counted by the activities that do them, in the worker's registry (WORKER_METRICS_PORT).
 */
import { METRICS } from './catalog';
import { counterOf, histogramOf } from './registry';
import { workerRegistry } from './worker-metrics';

const deliveries = counterOf(workerRegistry, METRICS.webhookDeliveries);
const duration = histogramOf(workerRegistry, METRICS.webhookDeliveryDuration);

/** One attempt that took `ms`: delivered, or failed (whether or not it is tried again). */
export function observeWebhookAttempt(outcome: 'delivered' | 'failed_attempt', ms: number): void {
  deliveries.inc({ outcome });
  duration.observe({ outcome }, ms / 1000);
}

/** An event one receiver will never get. */
export function observeWebhookGivenUp(): void {
  deliveries.inc({ outcome: 'given_up' });
}
