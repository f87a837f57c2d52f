/**
 * Which traces are kept: `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`, as the OpenTelemetry
 * specification names them (its "General SDK Configuration"), default `parentbased_always_on`: a
 * leg whose client sent a trace context follows the client's decision, any other is kept. Unlike
 * the SDK, which logs and falls back on a value it does not know, a bad one stops the process
 * (lib/config): a sampler silently replaced keeps or drops traces no one asked for. The
 * service's spans are made with it; the workflow's spans, made in Temporal's sandbox, follow the
 * decision of the leg that started or signalled the workflow, since they are its descendants.
 */
import { z } from 'zod';
import { documented } from './variables/documented';
import { unsetWhenEmpty } from './variables/value-kinds';

/** The samplers the specification names that need nothing outside the process. */
export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
export type TracesSamplerName = (typeof TRACES_SAMPLERS)[number];

export const DEFAULT_TRACES_SAMPLER: TracesSamplerName = 'parentbased_always_on';

/** The sampler and, for the two ratio samplers, the share of traces kept (the specification's default 1.0). */
export interface SamplerSetting {
  name: TracesSamplerName;
  ratio: number;
}

export const SAMPLER_ENV = {
  OTEL_TRACES_SAMPLER: documented(
    z.preprocess(
      (value) => (value === '' ? undefined : value),
      z
        .enum(TRACES_SAMPLERS, { message: `must be one of ${TRACES_SAMPLERS.join(', ')}` })
        .default(DEFAULT_TRACES_SAMPLER),
    ),
    'which traces are kept: `always_on`, `always_off`, `traceidratio`, `parentbased_always_on` (default), `parentbased_always_off`, `parentbased_traceidratio`',
  ),
  OTEL_TRACES_SAMPLER_ARG: documented(
    unsetWhenEmpty(
      z
        .string()
        .trim()
        .regex(/^(0|1|0?\.\d+|[01]\.\d*)$/, 'must be a number from 0 to 1')
        .transform(Number)
        .pipe(z.number().min(0, 'must be a number from 0 to 1').max(1, 'must be a number from 0 to 1')),
    ),
    'the share of traces the two ratio samplers keep, from `0` to `1`; default `1`; the others ignore it',
  ),
};

type SamplerEnv = { [K in keyof typeof SAMPLER_ENV]?: z.infer<(typeof SAMPLER_ENV)[K]> };

export function parseSamplerSetting(env: SamplerEnv): SamplerSetting {
  return { name: env.OTEL_TRACES_SAMPLER ?? DEFAULT_TRACES_SAMPLER, ratio: env.OTEL_TRACES_SAMPLER_ARG ?? 1 };
}
