/**
 * The span of one HTTP leg (`mcp tools/call`, or `mcp response` for a legacy client's
 * answer to the server's request): a child of the trace the client sent, read from the
 * request's `params._meta.traceparent` (and `tracestate`), as the MCP specification's `_meta`
 * trace context carries it, else from the W3C `traceparent` HTTP header; a new trace otherwise.
 * It is active while the leg runs, so the workflow start or signal the leg makes (Temporal's
 * OpenTelemetry client interceptor) is its child and carries the trace into the workflow.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { legSpanName, spanText } from './span-names';
import { inSpan } from './in-span';

export type LegEra = 'modern' | 'legacy' | 'transport';

/** What the span says of the leg's message. */
export interface LegMessage {
  method?: string;
  params?: unknown;
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

const stringAt = (from: Record<string, unknown> | undefined, key: string): string | undefined =>
  typeof from?.[key] === 'string' ? from[key] : undefined;

/** The tool or prompt name, or resource URI, a request is about. */
export function targetOf(params: unknown): string | undefined {
  const p = record(params);
  return stringAt(p, 'name') ?? stringAt(p, 'uri');
}

/** The client's trace context: `_meta.traceparent`/`tracestate` first, then the HTTP headers. */
export function clientTraceContext(params: unknown, header: (name: string) => string | undefined): Context {
  const meta = record(record(params)?._meta);
  const carrier: Record<string, string> = {};
  const traceparent = stringAt(meta, 'traceparent') ?? header('traceparent');
  if (traceparent === undefined) return ROOT_CONTEXT;
  carrier.traceparent = traceparent;
  const tracestate = stringAt(meta, 'traceparent') !== undefined ? stringAt(meta, 'tracestate') : header('tracestate');
  if (tracestate !== undefined) carrier.tracestate = tracestate;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

/** Runs one leg inside its span; the span ends when `run` settles. */
export async function withLegSpan<T>(
  message: LegMessage,
  era: LegEra,
  header: (name: string) => string | undefined,
  run: (span: Span) => Promise<T>,
): Promise<T> {
  const { method } = message;
  const target = targetOf(message.params);
  const attributes: Attributes = {
    ...(method !== undefined ? { 'mcp.method': spanText(method) } : {}),
    'mcp.era': era,
    ...(target ? { 'mcp.target': spanText(target) } : {}),
  };
  // A message with an id and no method is a client's response (a legacy answer).
  return inSpan(
    legSpanName(method),
    { kind: SpanKind.SERVER, attributes, parent: clientTraceContext(message.params, header) },
    run,
  );
}

/** Marks the active leg's span with the exchange it starts or answers. */
export function tagLegExchange(exchangeId: string, round?: number): void {
  const span = trace.getSpan(context.active());
  span?.setAttribute('mcp.exchange_id', exchangeId);
  if (round !== undefined) span?.setAttribute('mcp.round', round);
}
