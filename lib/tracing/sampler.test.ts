// OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG: parsed at start as the OpenTelemetry specification
// names them, a bad value refused naming its variable, and each setting deciding as it says.
import { context, ROOT_CONTEXT, SpanKind, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { SamplingDecision } from '@opentelemetry/sdk-trace-base';
import { ConfigError, loadConfigOrExit, parseConfig } from '../config';
import { samplerOf } from './sampler';
import { type SamplerSetting } from '../config/traces-sampler';

const base = (): Record<string, string | undefined> => ({
  DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
  REQUEST_STATE_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
  PAYLOAD_CODEC_KEYS: `p1:${Buffer.alloc(32, 2).toString('base64')}`,
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
});
const samplerSetting = (env: Record<string, string>) => parseConfig({ ...base(), ...env }).tracing?.sampler;

const refusal = (env: Record<string, string>): string => {
  try {
    parseConfig({ ...base(), ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(env)} was accepted`);
};

// A trace id the ratio sampler places at one half (its 32-bit words XOR to 0x80000000): kept by a
// ratio of 0.75 or 1, dropped by 0.25 or 0.
const TRACE_ID = '00000000000000007fffffffffffffff';
const withParent = (sampled: boolean): Context =>
  trace.setSpanContext(ROOT_CONTEXT, {
    traceId: TRACE_ID,
    spanId: '00f067aa0ba902b7',
    traceFlags: sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
    isRemote: true,
  });

/** Whether `setting` keeps a span under `parent` (none: a root span). */
const keeps = (setting: SamplerSetting, parent: Context = context.active()) =>
  samplerOf(setting).shouldSample(parent, TRACE_ID, 'mcp tools/call', SpanKind.SERVER, {}, []).decision ===
  SamplingDecision.RECORD_AND_SAMPLED;

describe('OTEL_TRACES_SAMPLER', () => {
  it('defaults to parentbased_always_on, the ratio to 1', () => {
    expect(samplerSetting({})).toEqual({ name: 'parentbased_always_on', ratio: 1 });
    expect(samplerSetting({ OTEL_TRACES_SAMPLER: '', OTEL_TRACES_SAMPLER_ARG: '' })).toEqual({
      name: 'parentbased_always_on',
      ratio: 1,
    });
  });

  it.each([
    ['always_on', '', { name: 'always_on', ratio: 1 }],
    ['always_off', '', { name: 'always_off', ratio: 1 }],
    ['traceidratio', '0.25', { name: 'traceidratio', ratio: 0.25 }],
    ['parentbased_always_on', '', { name: 'parentbased_always_on', ratio: 1 }],
    ['parentbased_always_off', '', { name: 'parentbased_always_off', ratio: 1 }],
    ['parentbased_traceidratio', '.5', { name: 'parentbased_traceidratio', ratio: 0.5 }],
    ['parentbased_traceidratio', '0', { name: 'parentbased_traceidratio', ratio: 0 }],
    ['traceidratio', '1.0', { name: 'traceidratio', ratio: 1 }],
  ])('reads %s (arg %j)', (name, arg, setting) => {
    expect(samplerSetting({ OTEL_TRACES_SAMPLER: name, OTEL_TRACES_SAMPLER_ARG: arg })).toEqual(setting);
  });

  it.each(['AlwaysOn', 'jaeger_remote', 'ratio', 'always on'])('refuses %j, naming the variable', (value) => {
    expect(refusal({ OTEL_TRACES_SAMPLER: value })).toMatch(
      /OTEL_TRACES_SAMPLER is malformed: must be one of always_on, always_off, traceidratio/,
    );
  });

  it.each(['1.5', '-0.1', 'half', '0x1', '1e-3', '50%'])('refuses the ratio %j, naming the variable', (value) => {
    expect(refusal({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: value })).toMatch(
      /OTEL_TRACES_SAMPLER_ARG is malformed: must be a number from 0 to 1/,
    );
  });

  it('checks the sampler even while traces are off, so turning them on cannot fail later', () => {
    const { OTEL_EXPORTER_OTLP_ENDPOINT: _on, ...off } = base();
    expect(() => parseConfig({ ...off, OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
  });

  describe('at start', () => {
    afterEach(() => jest.restoreAllMocks());
    it('stops the process with exit code 78 and the variable named', () => {
      jest.replaceProperty(process, 'env', { ...base(), OTEL_TRACES_SAMPLER: 'sometimes' } as NodeJS.ProcessEnv);
      jest.spyOn(process, 'exit').mockImplementation((code) => {
        throw new Error(`exit ${code}`);
      });
      const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
      expect(() => loadConfigOrExit('worker')).toThrow('exit 78');
      expect(String(stderr.mock.calls[0]?.[0])).toMatch(/OTEL_TRACES_SAMPLER is malformed/);
    });
  });
});

describe('samplerOf', () => {
  it('keeps or drops a root span as its setting says', () => {
    expect(keeps({ name: 'always_on', ratio: 1 })).toBe(true);
    expect(keeps({ name: 'always_off', ratio: 1 })).toBe(false);
    expect(keeps({ name: 'traceidratio', ratio: 1 })).toBe(true);
    expect(keeps({ name: 'traceidratio', ratio: 0.75 })).toBe(true);
    expect(keeps({ name: 'traceidratio', ratio: 0.25 })).toBe(false);
    expect(keeps({ name: 'parentbased_always_on', ratio: 1 })).toBe(true);
    expect(keeps({ name: 'parentbased_always_off', ratio: 1 })).toBe(false);
    expect(keeps({ name: 'parentbased_traceidratio', ratio: 1 })).toBe(true);
    expect(keeps({ name: 'parentbased_traceidratio', ratio: 0 })).toBe(false);
  });

  it("follows the client's decision when parent-based, and ignores it otherwise", () => {
    expect(keeps({ name: 'parentbased_always_on', ratio: 1 }, withParent(false))).toBe(false);
    expect(keeps({ name: 'parentbased_always_off', ratio: 1 }, withParent(true))).toBe(true);
    expect(keeps({ name: 'parentbased_traceidratio', ratio: 0 }, withParent(true))).toBe(true);
    expect(keeps({ name: 'always_on', ratio: 1 }, withParent(false))).toBe(true);
    expect(keeps({ name: 'always_off', ratio: 1 }, withParent(true))).toBe(false);
  });
});
