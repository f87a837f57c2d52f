/**
 * The worker's gateway metrics: each call a round made to an upstream, timed, and each upstream's
 * circuit. The `upstream` label is a declared upstream's name (at most MAX_UPSTREAMS of them).
 */
import { METRICS } from './catalog';
import { counterOf, gaugeOf, histogramOf } from './registry';
import { workerRegistry } from './worker-metrics';

export type UpstreamCallOutcome = 'result' | 'ask' | 'protocol_error' | 'failed' | 'circuit_open';

const calls = counterOf(workerRegistry, METRICS.upstreamCalls);
const duration = histogramOf(workerRegistry, METRICS.upstreamCallDuration);
const circuitOpen = gaugeOf(workerRegistry, METRICS.upstreamCircuitOpen);

export function observeUpstreamCall(upstream: string, outcome: UpstreamCallOutcome, ms?: number): void {
  calls.inc({ upstream, outcome });
  if (ms !== undefined) duration.observe({ upstream, outcome }, ms / 1000);
}

export function observeUpstreamCircuit(upstream: string, open: boolean): void {
  circuitOpen.set({ upstream }, open ? 1 : 0);
}
