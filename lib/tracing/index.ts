/** Traces (docs/operators.md "Traces"): OpenTelemetry over OTLP/HTTP when configured, no-op otherwise. */
export { parseTracingConfig, TRACING_ENV, type TracingConfig } from '../config/tracing';
export { samplerOf } from './sampler';
export { TRACES_SAMPLERS, type SamplerSetting } from '../config/traces-sampler';
export { serviceTracer, startTracing, TRACER_NAME, type Tracing } from './tracer-provider';
export { clientTraceContext, tagLegExchange, targetOf, withLegSpan, type LegEra } from './leg-span';
export {
  activeTraceContext,
  EXCHANGE_LINK_ATTRIBUTE,
  linkToExchangeTrace,
  type ExchangeTraceContext,
} from './exchange-trace';
export {
  TRACING_WORKFLOW_INTERCEPTORS_MODULE,
  tracingClientInterceptors,
  tracingWorkerOptions,
} from './temporal-tracing';
