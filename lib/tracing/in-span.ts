/**
 * One piece of work as the active span of the service's tracer (`name`, with `options`), ended when
 * it settles; a failure is recorded on it (the exception, and an error status saying
 * `reason(error)`) and thrown on. A no-op span while traces are off. Its parent is the active
 * context's span, or `options.parent`'s (a client's trace context, a leg's).
 */
import { context, SpanStatusCode, type Context, type Span, type SpanOptions } from '@opentelemetry/api';
import { serviceTracer } from './tracer-provider';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function inSpan<T>(
  name: string,
  options: SpanOptions & { parent?: Context },
  run: (span: Span) => Promise<T>,
  reason: (error: unknown) => string = messageOf,
): Promise<T> {
  const { parent, ...spanOptions } = options;
  return serviceTracer().startActiveSpan(name, spanOptions, parent ?? context.active(), async (span) => {
    try {
      return await run(span);
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: reason(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
