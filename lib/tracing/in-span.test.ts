import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { recordSpans } from '../../test/support/recorded-spans';
import { inSpan } from './in-span';

const { exporter } = recordSpans();

describe('inSpan', () => {
  it('runs the work as the active span, which ends with its result', async () => {
    const result = await inSpan(
      'upstream shop tools/call',
      { kind: SpanKind.CLIENT, attributes: { a: 1 } },
      async (span) => {
        span.setAttribute('b', 2);
        return 'done';
      },
    );
    expect(result).toBe('done');
    const [span] = exporter.getFinishedSpans();
    expect(span).toMatchObject({ name: 'upstream shop tools/call', kind: SpanKind.CLIENT, attributes: { a: 1, b: 2 } });
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records a failure, its status saying why in the words given, and throws it on', async () => {
    const failing = async () => {
      throw new Error('refused');
    };
    await expect(inSpan('handler greet round 1', {}, failing)).rejects.toThrow('refused');
    await expect(inSpan('upstream shop tools/call', {}, failing, () => 'HTTP 401: refused')).rejects.toThrow('refused');
    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.status)).toEqual([
      { code: SpanStatusCode.ERROR, message: 'refused' },
      { code: SpanStatusCode.ERROR, message: 'HTTP 401: refused' },
    ]);
    expect(spans.map((span) => span.events.map((event) => event.name))).toEqual([['exception'], ['exception']]);
  });
});
