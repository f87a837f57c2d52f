/**
 * Trace export settings, by the standard OpenTelemetry names: off unless an OTLP endpoint is set.
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is the traces URL as it is; `OTEL_EXPORTER_OTLP_ENDPOINT` is
 * the collector's base URL, to which `/v1/traces` is added (as the OpenTelemetry specification says).
 * Spans go over OTLP/HTTP with JSON bodies; which are kept, sampler.ts says.
 */
import { z } from 'zod';
import { documented } from './variables/documented';
import { integer, unsetWhenEmpty } from './variables/value-kinds';
import { parseSamplerSetting, SAMPLER_ENV, type SamplerSetting } from './traces-sampler';

const httpUrl = () =>
  z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL');

/** What one span and the export queue hold by default. */
export const DEFAULT_TRACING_LIMITS: TracingConfig['limits'] = {
  attributeValueLength: 1024,
  attributeCount: 64,
  maxQueuedSpans: 2048,
};

export const TRACING_ENV = {
  OTEL_EXPORTER_OTLP_ENDPOINT: documented(
    unsetWhenEmpty(httpUrl()),
    "the collector's OTLP/HTTP base URL (`http://collector:4318`); spans are POSTed to `<it>/v1/traces`; unset, no traces ([Traces](operators.md#traces))",
  ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: documented(
    unsetWhenEmpty(httpUrl()),
    'the traces URL itself, when not the one above; wins over it',
  ),
  OTEL_SERVICE_NAME: documented(
    unsetWhenEmpty(z.string().trim().min(1).max(255)),
    "the spans' `service.name`; default `durable-mcp-api`, `durable-mcp-worker`, or `durable-mcp` for both in one process",
  ),
  ...SAMPLER_ENV,
  OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: documented(
    integer(32, 65_536).default(DEFAULT_TRACING_LIMITS.attributeValueLength),
    'the longest span attribute value kept (longer ones are cut); what a client sends (a method, a tool name) is cut to 128 characters before it',
  ),
  OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: documented(
    integer(8, 1024).default(DEFAULT_TRACING_LIMITS.attributeCount),
    'the most attributes a span keeps; past it, the SDK drops the rest (events and links are capped at 32 and 8)',
  ),
  OTEL_BSP_MAX_QUEUE_SIZE: documented(
    integer(64, 1_000_000).default(DEFAULT_TRACING_LIMITS.maxQueuedSpans),
    'the most finished spans held for export; while the collector is slow or down, spans past it are dropped, not buffered',
  ),
};

export interface TracingConfig {
  /** Where spans are POSTed (OTLP/HTTP, JSON). */
  tracesUrl: string;
  serviceName?: string;
  /** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (sampler.ts). */
  sampler: SamplerSetting;
  /** What one span, and the export queue, may hold. */
  limits: { attributeValueLength: number; attributeCount: number; maxQueuedSpans: number };
}

type TracingEnv = { [K in keyof typeof TRACING_ENV]?: z.infer<(typeof TRACING_ENV)[K]> };

/** The tracing settings, or undefined when no endpoint is configured (tracing off). */
export function parseTracingConfig(env: TracingEnv): TracingConfig | undefined {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const tracesUrl = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base && `${base.replace(/\/+$/, '')}/v1/traces`);
  if (!tracesUrl) return undefined;
  return {
    tracesUrl,
    ...(env.OTEL_SERVICE_NAME ? { serviceName: env.OTEL_SERVICE_NAME } : {}),
    sampler: parseSamplerSetting(env),
    limits: {
      attributeValueLength: env.OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT ?? DEFAULT_TRACING_LIMITS.attributeValueLength,
      attributeCount: env.OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT ?? DEFAULT_TRACING_LIMITS.attributeCount,
      maxQueuedSpans: env.OTEL_BSP_MAX_QUEUE_SIZE ?? DEFAULT_TRACING_LIMITS.maxQueuedSpans,
    },
  };
}
