/**
 * For unit tests of tracing: a tracer provider registered globally for the file's tests, whose
 * finished spans are kept in memory (`exporter.getFinishedSpans()`) and dropped after each test;
 * after the file, the provider is shut down and OpenTelemetry's globals are disabled again.
 * Call it at a test file's top level (it registers the jest hooks).
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export function recordSpans(): { exporter: InMemorySpanExporter; provider: NodeTracerProvider } {
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
  return { exporter, provider };
}
