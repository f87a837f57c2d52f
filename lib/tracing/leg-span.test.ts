import { propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { clientTraceContext, targetOf } from './leg-span';

const CLIENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const OTHER = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const noHeaders = () => undefined;
const headers = (values: Record<string, string>) => (name: string) => values[name];
const traceIdOf = (params: unknown, header: (name: string) => string | undefined) =>
  trace.getSpanContext(clientTraceContext(params, header))?.traceId;

describe('clientTraceContext', () => {
  beforeAll(() => propagation.setGlobalPropagator(new W3CTraceContextPropagator()));
  afterAll(() => propagation.disable());

  it("continues the trace a request's _meta carries, before the HTTP header's", () => {
    const params = { name: 'greet', _meta: { traceparent: CLIENT } };
    expect(traceIdOf(params, headers({ traceparent: OTHER }))).toBe('0af7651916cd43dd8448eb211c80319c');
  });

  it('falls back to the W3C traceparent header', () => {
    expect(traceIdOf({ name: 'greet' }, headers({ traceparent: OTHER }))).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
  });

  it('reads tracestate from where traceparent came from, never mixing the two sources', () => {
    const fromMeta = clientTraceContext(
      { _meta: { traceparent: CLIENT, tracestate: 'vendor=meta' } },
      headers({ tracestate: 'vendor=header' }),
    );
    expect(trace.getSpanContext(fromMeta)?.traceState?.get('vendor')).toBe('meta');
    const fromHeader = clientTraceContext({}, headers({ traceparent: OTHER, tracestate: 'vendor=header' }));
    expect(trace.getSpanContext(fromHeader)?.traceState?.get('vendor')).toBe('header');
  });

  it.each([
    ['no trace context at all', {}, noHeaders],
    ['a malformed traceparent', { _meta: { traceparent: 'not-a-traceparent' } }, noHeaders],
    ['a traceparent that is not a string', { _meta: { traceparent: 42 } }, noHeaders],
    ['params that are not an object', 'x', noHeaders],
  ])('starts a new trace for %s', (_label, params, header) => {
    expect(trace.getSpanContext(clientTraceContext(params, header))).toBeUndefined();
    expect(clientTraceContext({}, noHeaders)).toBe(ROOT_CONTEXT);
  });
});

describe('targetOf', () => {
  it.each([
    [{ name: 'greet' }, 'greet'],
    [{ uri: 'docs://index' }, 'docs://index'],
    [{ name: 7 }, undefined],
    [undefined, undefined],
    [['greet'], undefined],
  ])('reads %j as %j', (params, target) => {
    expect(targetOf(params)).toBe(target);
  });
});
