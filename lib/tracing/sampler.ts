/**
 * The OpenTelemetry SDK's sampler for the setting lib/config/traces-sampler.ts reads. The service's
 * spans are made with it; the workflow's spans follow the decision of the leg that started or
 * signalled the workflow, since they are its descendants.
 */
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type Sampler,
} from '@opentelemetry/sdk-trace-base';
import type { SamplerSetting } from '../config/traces-sampler';

/** The SDK's sampler for a setting. */
export function samplerOf({ name, ratio }: SamplerSetting): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}
