// The `answer question` span: one per attempt, saying who answered, which question, through what
// and what came of it (taken, or the refusal), linked to the exchange's trace.
import { SpanStatusCode } from '@opentelemetry/api';
import type { AnswerChannel } from '../questions/question';
import { EXCHANGE_LINK_ATTRIBUTE } from '../tracing/exchange-trace';
import { recordSpans } from '../../test/support/recorded-spans';
import { withAnswerSpan } from './answer-span';

const { exporter } = recordSpans();

const EXCHANGE = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
const noTrace = async () => undefined;

/** The one span the attempt finished. */
function answerSpan() {
  const spans = exporter.getFinishedSpans();
  expect(spans.map((span) => span.name)).toEqual(['answer question']);
  return spans[0]!;
}

/** The attributes of an attempt by `answerer` at `questionId` through `via`, with its outcome if it has one. */
const attributes = (questionId: string, answerer: string, via: AnswerChannel, outcome?: string) => ({
  'mcp.question.id': questionId,
  'mcp.question.answerer': answerer,
  'mcp.question.via': via,
  ...(outcome !== undefined ? { 'mcp.question.outcome': outcome } : {}),
});

describe('the answer question span', () => {
  it("names the answerer, the question and the channel, is linked to the exchange's trace, and says it was taken", async () => {
    const dana = 'https://auth.example.com|dana';
    const reply = await withAnswerSpan(
      { questionId: 'q-1', answerer: dana, via: 'page' },
      async () => EXCHANGE,
      async () => ({ kind: 'taken' }),
    );
    expect(reply).toEqual({ kind: 'taken' });
    const span = answerSpan();
    expect(span.attributes).toEqual(attributes('q-1', dana, 'page', 'taken'));
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(span.links.map((link) => [link.context.traceId, link.context.spanId, link.attributes])).toEqual([
      ['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', { [EXCHANGE_LINK_ATTRIBUTE]: 'exchange' }],
    ]);
  });

  it("says a refused attempt's reason as its outcome", async () => {
    await withAnswerSpan({ questionId: 'q-2', answerer: 'mallory', via: 'api' }, noTrace, async () => ({
      kind: 'refused',
      refusal: 'not-addressed',
    }));
    const span = answerSpan();
    expect(span.attributes).toEqual(attributes('q-2', 'mallory', 'api', 'not-addressed'));
    expect(span.links).toEqual([]);
  });

  it('says a reply of another kind as its outcome (an answer that does not fit the form)', async () => {
    await withAnswerSpan({ questionId: 'q-3', answerer: 'dana', via: 'api' }, noTrace, async () => ({
      kind: 'invalid',
    }));
    expect(answerSpan().attributes).toEqual(attributes('q-3', 'dana', 'api', 'invalid'));
  });

  it('ends in error, with no outcome, when answering fails', async () => {
    await expect(
      withAnswerSpan({ questionId: 'q-4', answerer: 'dana', via: 'page' }, noTrace, () =>
        Promise.reject(new Error('Postgres is away')),
      ),
    ).rejects.toThrow('Postgres is away');
    const span = answerSpan();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Postgres is away' });
    expect(span.attributes).toEqual(attributes('q-4', 'dana', 'page'));
  });
});
