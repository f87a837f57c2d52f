/**
 * The process's tracer provider: started once when tracing is configured (both services in one
 * process share it), registered as OpenTelemetry's global one (with the W3C trace-context
 * propagator and the AsyncLocalStorage context manager), and flushed and shut down when the last
 * service that uses it stops. Without it every span is OpenTelemetry's no-op one.
 */
import { context, propagation, trace, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { samplerOf } from './sampler';
import type { TracingConfig } from '../config/tracing';

/** The instrumentation scope of the service's own spans. */
export const TRACER_NAME = 'durable-mcp';

export interface Tracing {
  readonly tracer: Tracer;
  /** For the workflow spans the worker's sink exports (makeWorkflowExporter). */
  readonly spanProcessor: SpanProcessor;
  readonly resource: Resource;
  /** Lets go of this holder's use; the last one flushes the spans still buffered and shuts the provider down. */
  release(): Promise<void>;
}

let shared: { provider: NodeTracerProvider; tracing: Omit<Tracing, 'release'>; holders: number } | undefined;

export function startTracing(config: TracingConfig, defaultServiceName: string, serviceVersion?: string): Tracing {
  if (!shared) {
    const resource = new Resource({
      [ATTR_SERVICE_NAME]: config.serviceName ?? defaultServiceName,
      ...(serviceVersion ? { [ATTR_SERVICE_VERSION]: serviceVersion } : {}),
    });
    // Batched: a span costs the request a push onto a buffer, not a round trip to the collector.
    // Bounded: past the queue, spans are dropped while the collector is slow, never buffered.
    const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter({ url: config.tracesUrl }), {
      scheduledDelayMillis: 1000,
      maxQueueSize: config.limits.maxQueuedSpans,
      maxExportBatchSize: Math.min(512, config.limits.maxQueuedSpans),
    });
    // The sampler is always given, so the SDK never reads OTEL_TRACES_SAMPLER from the environment itself.
    const provider = new NodeTracerProvider({
      resource,
      sampler: samplerOf(config.sampler),
      spanProcessors: [spanProcessor],
      // Given here, so the SDK reads none of them from the environment itself (lib/config checks those).
      spanLimits: {
        attributeValueLengthLimit: config.limits.attributeValueLength,
        attributeCountLimit: config.limits.attributeCount,
        eventCountLimit: 32,
        linkCountLimit: 8,
        attributePerEventCountLimit: 16,
        attributePerLinkCountLimit: 16,
      },
    });
    provider.register();
    shared = { provider, tracing: { tracer: trace.getTracer(TRACER_NAME), spanProcessor, resource }, holders: 0 };
  }
  const current = shared;
  current.holders += 1;
  let released = false;
  return {
    ...current.tracing,
    async release() {
      if (released) return;
      released = true;
      current.holders -= 1;
      if (current.holders > 0) return;
      if (shared === current) shared = undefined;
      await current.provider.shutdown();
      // A later start in this process registers a new provider.
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** The tracer of the service's own spans: the registered provider's, or OpenTelemetry's no-op one. */
export const serviceTracer = (): Tracer => trace.getTracer(TRACER_NAME);
