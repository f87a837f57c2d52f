/**
 * The API process's metrics (GET /metrics on the API's port). One registry per process, as
 * Prometheus scrapes one process: the API's modules count into it where each thing happens (the
 * gateway for starts and signals, the legs for waits and state-only results, the error replies for
 * JSON-RPC errors, the stream slots for open streams).
 */
import type { HandlerSet } from '@durable-mcp/handlers';
import type { Era, ExchangeInput, ExchangeMethod, RoundOutcome } from '../exchange/types';
import { exchangeStatusOf } from '../exchange/exchange-status';
import type { StuckCause } from '../exchange/stuck-causes';
import { METRICS } from './catalog';
import { codeLabel, targetLabel } from './labels';
import { counterOf, createRegistry, gaugeOf, histogramOf } from './registry';

export const apiRegistry = createRegistry();

/** Where the running-exchanges count comes from (the API's Postgres), set while an API runs. */
let openExchangesSource: (() => Promise<number>) | undefined;
/** A scrape never waits on Postgres longer than this; the gauge then keeps its last value. */
const OPEN_EXCHANGES_READ_MS = 1_000;

const exchangesStarted = counterOf(apiRegistry, METRICS.exchangesStarted);
const exchangesEnded = counterOf(apiRegistry, METRICS.exchangesEnded);
const stuckWorkflowsEnded = counterOf(apiRegistry, METRICS.stuckWorkflowsEnded);
const humanWait = histogramOf(apiRegistry, METRICS.humanWait);
const signalsSent = counterOf(apiRegistry, METRICS.signalsSent);
const stateOnlyResults = counterOf(apiRegistry, METRICS.stateOnlyResults);
const answersRedelivered = counterOf(apiRegistry, METRICS.answersRedelivered);
const rpcErrors = counterOf(apiRegistry, METRICS.rpcErrors);
const quotaRefusals = counterOf(apiRegistry, METRICS.quotaRefusals);
const legacyStreamsOpen = gaugeOf(apiRegistry, METRICS.legacyStreamsOpen);
gaugeOf(apiRegistry, METRICS.exchangesOpen, async (gauge) => {
  const source = openExchangesSource;
  if (!source) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), OPEN_EXCHANGES_READ_MS);
  });
  const count = await Promise.race([source().catch(() => undefined), late]).finally(() => clearTimeout(timer));
  if (count !== undefined) gauge.set(count);
});

export type SignalName = 'answers' | 'keyAnswer' | 'questionAnswer' | 'cancel';
export type SignalResult = 'delivered' | 'workflow_closed' | 'failed';

export const apiMetrics = {
  /** Makes `mcp_exchanges_open` read from `source` at each scrape; returns the undo. */
  readOpenExchangesFrom(source: () => Promise<number>): () => void {
    openExchangesSource = source;
    return () => {
      if (openExchangesSource === source) openExchangesSource = undefined;
    };
  },

  exchangeStarted(handlers: HandlerSet | undefined, input: Pick<ExchangeInput, 'era' | 'request'>): void {
    const { method, target } = input.request;
    exchangesStarted.inc({ method, target: targetLabel(handlers, method, target), era: input.era });
  },

  /** An ending the API recorded itself (a workflow Temporal closed without one). */
  exchangeEnded(
    handlers: HandlerSet | undefined,
    exchange: { method: ExchangeMethod; target: string },
    outcome: RoundOutcome,
  ): void {
    if (outcome.kind === 'ask') return;
    const status = exchangeStatusOf({
      kind: outcome.kind,
      errorCode: outcome.kind === 'error' ? outcome.error.code : undefined,
    });
    exchangesEnded.inc({
      method: exchange.method,
      target: targetLabel(handlers, exchange.method, exchange.target),
      status,
    });
  },

  /** A workflow whose tasks kept failing, terminated by this API's stuck workflow sweep. */
  stuckWorkflowEnded(cause: StuckCause): void {
    stuckWorkflowsEnded.inc({ cause });
  },

  signalSent(signal: SignalName, result: SignalResult): void {
    signalsSent.inc({ signal, result });
  },

  /** A retried answer signalled again because its workflow said it lacked it (answer-redelivery.ts). */
  answerRedelivered(era: Era): void {
    answersRedelivered.inc({ era });
  },

  /** An answer signalled for an ask recorded at `askedAt`. */
  answerSignalled(era: Era, askedAt: Date): void {
    humanWait.observe({ era }, Math.max(0, Date.now() - askedAt.getTime()) / 1000);
  },

  stateOnlyResult(handlers: HandlerSet | undefined, method: ExchangeMethod, target: string): void {
    stateOnlyResults.inc({ method, target: targetLabel(handlers, method, target) });
  },

  rpcError(era: Era | 'transport', code: number): void {
    rpcErrors.inc({ era, code: codeLabel(code) });
  },

  /** A new exchange refused by a full quota (its rule's name, one of at most MAX_QUOTA_RULES + 2, and its window). */
  quotaRefused(quota: string, window: string): void {
    quotaRefusals.inc({ quota, window });
  },

  legacyStreamOpened(): void {
    legacyStreamsOpen.inc();
  },

  legacyStreamClosed(): void {
    legacyStreamsOpen.dec();
  },
};
