/**
 * One exchange, one trace, however many legs it takes. The leg that starts an exchange holds its
 * workflow and every round (Temporal's interceptors carry that leg's context into the workflow, so
 * later rounds stay under the same run span). Its trace context is written with the exchange's row
 * in Postgres (migration 0020), and every later leg of the exchange (a 2026-07-28 retry with
 * answers, a legacy response on its session, tasks/update) adds a span link to it.
 *
 * Why Postgres, not the workflow's input or memo: every later leg reads the exchange's rows anyway
 * and may reach any API replica, and the workflow's input or memo could only be read back with a
 * Temporal describe call per leg. Why a link, not a parent: a leg's span starts before the leg is
 * known to belong to an exchange (its exchange is inside the sealed requestState, or behind the
 * response's id in Postgres), and a span's parent is fixed at its start. So a later leg keeps the
 * parent its own client sent (`_meta.traceparent`, the header), or starts a trace of its own, and
 * links to the exchange's first leg: the client's trace stays whole, and the exchange's trace is a
 * click away in any viewer that shows links.
 */
import { context, propagation, ROOT_CONTEXT, trace, type Span } from '@opentelemetry/api';

/** A W3C trace context, as it is written with an exchange. */
export interface ExchangeTraceContext {
  traceparent: string;
  tracestate?: string;
}

/** The attribute that says what a link points at. */
export const EXCHANGE_LINK_ATTRIBUTE = 'mcp.link';

/** The active span's, when it records, to be written with the exchange it starts; else none. */
export function activeTraceContext(): ExchangeTraceContext | undefined {
  if (!trace.getSpan(context.active())?.isRecording()) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  if (carrier.traceparent === undefined) return undefined;
  return { traceparent: carrier.traceparent, ...(carrier.tracestate ? { tracestate: carrier.tracestate } : {}) };
}

/**
 * Links the active leg's span to the trace of the exchange it belongs to. `read` fetches what the
 * first leg stored; it is called only while the span records, so traces off cost no query. A read
 * that fails costs the link, never the leg.
 */
export async function linkToExchangeTrace(read: () => Promise<ExchangeTraceContext | undefined>): Promise<void> {
  const span: Span | undefined = trace.getSpan(context.active());
  if (!span?.isRecording()) return;
  const stored = await read().catch(() => undefined);
  if (!stored) return;
  const exchange = trace.getSpanContext(propagation.extract(ROOT_CONTEXT, stored));
  if (!exchange) return;
  span.addLink({ context: exchange, attributes: { [EXCHANGE_LINK_ATTRIBUTE]: 'exchange' } });
}
