// The `answer question` span: one per attempt, saying who answered, which question, through what
// and what came of it (taken, or the refusal), linked to the exchange's trace.
import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { EXCHANGE_LINK_ATTRIBUTE } from '../../../../lib/tracing';
import { withAnswerSpan } from './answer-span';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => provider.register());
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
});
afterEach(() => exporter.reset());

const EXCHANGE = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
const noTrace = async () => undefined;

describe('the answer question span', () => {
  it("names the answerer, the question and the channel, is linked to the exchange's trace, and says it was taken", async () => {
    const reply = await withAnswerSpan(
      { questionId: 'q-1', answerer: 'https://auth.example.com|dana', via: 'page' },
      async () => EXCHANGE,
      async () => ({ kind: 'taken' }),
    );
    expect(reply).toEqual({ kind: 'taken' });
    const [span, ...others] = exporter.getFinishedSpans();
    expect(others).toEqual([]);
    expect(span!.name).toBe('answer question');
    expect(span!.attributes).toEqual({
      'mcp.question.id': 'q-1',
      'mcp.question.answerer': 'https://auth.example.com|dana',
      'mcp.question.via': 'page',
      'mcp.question.outcome': 'taken',
    });
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    expect(span!.links.map((link) => [link.context.traceId, link.context.spanId, link.attributes])).toEqual([
      ['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', { [EXCHANGE_LINK_ATTRIBUTE]: 'exchange' }],
    ]);
  });

  it("says a refused attempt's reason as its outcome", async () => {
    await withAnswerSpan({ questionId: 'q-2', answerer: 'mallory', via: 'api' }, noTrace, async () => ({
      kind: 'refused',
      refusal: 'not-addressed',
    }));
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('answer question');
    expect(span!.attributes).toEqual({
      'mcp.question.id': 'q-2',
      'mcp.question.answerer': 'mallory',
      'mcp.question.via': 'api',
      'mcp.question.outcome': 'not-addressed',
    });
    expect(span!.links).toEqual([]);
  });

  it('says a reply of another kind as its outcome (an answer that does not fit the form)', async () => {
    await withAnswerSpan({ questionId: 'q-3', answerer: 'dana', via: 'api' }, noTrace, async () => ({
      kind: 'invalid',
    }));
    expect(exporter.getFinishedSpans()[0]!.attributes['mcp.question.outcome']).toBe('invalid');
  });

  it('ends in error, with no outcome, when answering fails', async () => {
    await expect(
      withAnswerSpan({ questionId: 'q-4', answerer: 'dana', via: 'page' }, noTrace, () =>
        Promise.reject(new Error('Postgres is away')),
      ),
    ).rejects.toThrow('Postgres is away');
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('answer question');
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Postgres is away' });
    expect(span!.attributes).toEqual({
      'mcp.question.id': 'q-4',
      'mcp.question.answerer': 'dana',
      'mcp.question.via': 'page',
    });
  });
});
