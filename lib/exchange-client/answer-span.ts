/**
 * An answer to a question in the trace: one span per attempt (`answer question`), linked to the
 * exchange's trace, saying who answered, through what and what came of it (taken, or the refusal).
 * Names and values are the service's own, bounded: a principal key, a question id, a reason.
 */
import type { ExchangeTraceContext } from '../tracing/exchange-trace';
import { linkToExchangeTrace } from '../tracing/exchange-trace';
import { inSpan } from '../tracing/in-span';
import type { AnswerChannel } from '../questions/question';

export async function withAnswerSpan<T extends { kind: string; refusal?: string }>(
  attempt: { questionId: string; answerer: string; via: AnswerChannel },
  exchangeTrace: () => Promise<ExchangeTraceContext | undefined>,
  work: () => Promise<T>,
): Promise<T> {
  const attributes = {
    'mcp.question.id': attempt.questionId,
    'mcp.question.answerer': attempt.answerer,
    'mcp.question.via': attempt.via,
  };
  return inSpan('answer question', { attributes }, async (span) => {
    await linkToExchangeTrace(exchangeTrace);
    const reply = await work();
    span.setAttribute('mcp.question.outcome', reply.refusal ?? reply.kind);
    return reply;
  });
}
