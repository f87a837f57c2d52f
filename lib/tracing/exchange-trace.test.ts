// The exchange's trace context: taken from the first leg's span while it records, and linked
// from a later leg's span; nothing read or linked while traces are off or a span is not sampled.
import { AlwaysOffSampler } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { recordSpans } from '../../test/support/recorded-spans';
import { activeTraceContext, EXCHANGE_LINK_ATTRIBUTE, linkToExchangeTrace } from './exchange-trace';

const { exporter, provider } = recordSpans();
const tracer = () => provider.getTracer('test');

describe('activeTraceContext', () => {
  it("is the active span's traceparent and tracestate", () => {
    const stored = tracer().startActiveSpan('mcp tools/call', (span) => {
      const taken = activeTraceContext();
      span.end();
      return taken;
    });
    const [leg] = exporter.getFinishedSpans();
    expect(stored).toEqual({ traceparent: `00-${leg!.spanContext().traceId}-${leg!.spanContext().spanId}-01` });
  });

  it('is nothing outside a span, or in one that is not sampled', () => {
    expect(activeTraceContext()).toBeUndefined();
    const dropped = new NodeTracerProvider({ sampler: new AlwaysOffSampler() }).getTracer('off');
    const taken = dropped.startActiveSpan('mcp tools/call', (span) => {
      const stored = activeTraceContext();
      span.end();
      return stored;
    });
    expect(taken).toBeUndefined();
  });
});

describe('linkToExchangeTrace', () => {
  const exchange = {
    traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    tracestate: 'vendor=first',
  };

  it("links the active span to the exchange's first leg", async () => {
    await tracer().startActiveSpan('mcp response', async (span) => {
      await linkToExchangeTrace(async () => exchange);
      span.end();
    });
    const [answer] = exporter.getFinishedSpans();
    expect(answer!.links).toHaveLength(1);
    expect(answer!.links[0]!.context).toMatchObject({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
    });
    expect(answer!.links[0]!.context.traceState?.get('vendor')).toBe('first');
    expect(answer!.links[0]!.attributes).toEqual({ [EXCHANGE_LINK_ATTRIBUTE]: 'exchange' });
  });

  it('links nothing when the exchange has no trace context, or it cannot be read', async () => {
    await tracer().startActiveSpan('mcp response', async (span) => {
      await linkToExchangeTrace(async () => undefined);
      await linkToExchangeTrace(async () => ({ traceparent: 'not-a-traceparent' }));
      await linkToExchangeTrace(() => Promise.reject(new Error('Postgres is away')));
      span.end();
    });
    expect(exporter.getFinishedSpans()[0]!.links).toEqual([]);
  });

  it('reads nothing outside a recording span (traces off, or the leg not sampled)', async () => {
    let reads = 0;
    const read = async () => {
      reads += 1;
      return exchange;
    };
    await linkToExchangeTrace(read);
    const dropped = new NodeTracerProvider({ sampler: new AlwaysOffSampler() }).getTracer('off');
    await dropped.startActiveSpan('mcp response', async (span) => {
      await linkToExchangeTrace(read);
      span.end();
    });
    expect(reads).toBe(0);
  });
});
