/**
 * An answer to a question in the trace: one span per attempt (`answer question`), linked to the
 * exchange's trace, saying who answered, through what and what came of it (taken, or the refusal).
 * Names and values are the service's own, bounded: a principal key, a question id, a reason.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import type { ExchangeTraceContext } from '../tracing/exchange-trace';
import { linkToExchangeTrace } from '../tracing/exchange-trace';
import { serviceTracer } from '../tracing/tracer-provider';
import type { AnswerChannel } from '../questions/question';

export async function withAnswerSpan<T extends { kind: string; refusal?: string }>(
  attempt: { questionId: string; answerer: string; via: AnswerChannel },
  exchangeTrace: () => Promise<ExchangeTraceContext | undefined>,
  work: () => Promise<T>,
): Promise<T> {
  return serviceTracer().startActiveSpan('answer question', async (span) => {
    span.setAttributes({
      'mcp.question.id': attempt.questionId,
      'mcp.question.answerer': attempt.answerer,
      'mcp.question.via': attempt.via,
    });
    try {
      await linkToExchangeTrace(exchangeTrace);
      const reply = await work();
      span.setAttribute('mcp.question.outcome', reply.refusal ?? reply.kind);
      return reply;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
