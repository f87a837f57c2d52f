/**
 * Trace export settings, by the standard OpenTelemetry names: off unless an OTLP endpoint is set.
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is the traces URL as it is; `OTEL_EXPORTER_OTLP_ENDPOINT` is
 * the collector's base URL, to which `/v1/traces` is added (as the OpenTelemetry specification says).
 * Spans go over OTLP/HTTP with JSON bodies; which are kept, sampler.ts says.
 */
import { z } from 'zod';
import { documented } from '../config/documented';
import { unsetWhenEmpty } from '../config/kinds';
import { parseSamplerSetting, SAMPLER_ENV, type SamplerSetting } from './sampler';

const httpUrl = () =>
  z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL');

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
};

export interface TracingConfig {
  /** Where spans are POSTed (OTLP/HTTP, JSON). */
  tracesUrl: string;
  serviceName?: string;
  /** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (sampler.ts). */
  sampler: SamplerSetting;
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
  };
}
