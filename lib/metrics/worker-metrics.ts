/**
 * The worker process's metrics (its own listener, WORKER_METRICS_PORT, beside the Temporal SDK's
 * metrics). The activities count what they record, and only what they wrote themselves: a round a
 * retried activity found already recorded is not counted twice.
 */
import type { HandlerSet } from '@durable-mcp/handlers';
import type { ExchangeInput } from '../exchange/types';
import { exchangeStatusOf } from '../exchange/exchange-status';
import type { RoundRecord } from '../exchange/types';
import { METRICS } from './catalog';
import { codeLabel, targetLabel } from './labels';
import { counterOf, createRegistry, gaugeOf, histogramOf } from './registry';

export const workerRegistry = createRegistry();

const rounds = counterOf(workerRegistry, METRICS.rounds);
const roundDuration = histogramOf(workerRegistry, METRICS.roundDuration);
const exchangesEnded = counterOf(workerRegistry, METRICS.exchangesEnded);
const exchangeErrors = counterOf(workerRegistry, METRICS.exchangeErrors);

/** Where the pinned-exchanges count of this worker's version comes from (Temporal), set while a versioned worker runs. */
let pinnedSource: { labels: { deployment: string; build_id: string }; count: () => Promise<number> } | undefined;
/** A scrape never waits on Temporal longer than this; the gauge then keeps its last value. */
const PINNED_READ_MS = 1_000;
gaugeOf(workerRegistry, METRICS.exchangesPinned, async (gauge) => {
  const source = pinnedSource;
  if (!source) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), PINNED_READ_MS);
  });
  const count = await Promise.race([source.count().catch(() => undefined), late]).finally(() => clearTimeout(timer));
  if (count !== undefined) gauge.set(source.labels, count);
});

/** Makes `mcp_worker_version_exchanges_running` read `count` at each scrape, for this version; returns the undo. */
export function readPinnedExchangesFrom(
  version: { deploymentName: string; buildId: string },
  count: () => Promise<number>,
): () => void {
  const source = { labels: { deployment: version.deploymentName, build_id: version.buildId }, count };
  pinnedSource = source;
  return () => {
    if (pinnedSource === source) pinnedSource = undefined;
  };
}

/** An ending this worker recorded (a handler's final outcome, or an ending the workflow decided). */
export function observeEnding(handlers: HandlerSet | undefined, exchange: ExchangeInput, record: RoundRecord): void {
  const { outcome } = record;
  if (!record.recordedNow || outcome.kind === 'ask') return;
  const { method } = exchange.request;
  const target = targetLabel(handlers, method, exchange.request.target);
  const errorCode = outcome.kind === 'error' ? outcome.error.code : undefined;
  exchangesEnded.inc({ method, target, status: exchangeStatusOf({ kind: outcome.kind, errorCode }) });
  if (errorCode !== undefined) exchangeErrors.inc({ method, target, code: codeLabel(errorCode) });
}

/** A round whose handler ran (or was given up on) and whose outcome this worker recorded, `ms` after it was taken. */
export function observeRound(
  handlers: HandlerSet | undefined,
  exchange: ExchangeInput,
  record: RoundRecord,
  ms: number,
): void {
  if (!record.recordedNow) return;
  const { method } = exchange.request;
  const labels = {
    method,
    target: targetLabel(handlers, method, exchange.request.target),
    outcome: record.outcome.kind,
  };
  rounds.inc(labels);
  roundDuration.observe(labels, ms / 1000);
  observeEnding(handlers, exchange, record);
}
