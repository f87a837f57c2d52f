/**
 * One step of a leg or a round as a child span (`verify requestState`, `read rounds`, `await
 * round`, `start round`, `record round`), so a trace shows where the milliseconds between the
 * leg's span, the signal and the round's activity go (`npm run bench:answer-leg` reads them).
 * Only under a span that records: with traces off, or outside a traced leg, the step just runs.
 */
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { serviceTracer } from './tracer-provider';

export const STEP_SPANS = {
  verifyRequestState: 'verify requestState',
  readExchangeTrace: 'read exchange trace',
  readRounds: 'read rounds',
  awaitRound: 'await round',
  startRound: 'start round',
  recordRound: 'record round',
} as const;

export type StepSpanName = (typeof STEP_SPANS)[keyof typeof STEP_SPANS];

export function inStepSpan<T>(name: StepSpanName, step: () => T): T {
  if (!trace.getSpan(context.active())?.isRecording()) return step();
  return serviceTracer().startActiveSpan(name, (span) => {
    const ended = (error?: unknown) => {
      if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
    try {
      const result = step();
      if (result instanceof Promise)
        return result.then(
          (value) => (ended(), value),
          (error: unknown) => {
            ended(error);
            throw error;
          },
        ) as T;
      ended();
      return result;
    } catch (error) {
      ended(error);
      throw error;
    }
  });
}
