import { SpanStatusCode, trace } from '@opentelemetry/api';
import { recordSpans } from '../../test/support/recorded-spans';
import { inStepSpan, STEP_SPANS } from './step-span';

const { exporter } = recordSpans();
const underLeg = <T>(run: () => T): T =>
  trace.getTracer('test').startActiveSpan('mcp tools/call', (leg) => {
    try {
      return run();
    } finally {
      leg.end();
    }
  });

describe('inStepSpan', () => {
  it("makes a step a child span of the leg's, for a step that returns at once or later", async () => {
    expect(underLeg(() => inStepSpan(STEP_SPANS.verifyRequestState, () => 7))).toBe(7);
    await expect(underLeg(() => inStepSpan(STEP_SPANS.readRounds, async () => 'read'))).resolves.toBe('read');
    const spans = exporter.getFinishedSpans();
    const names = spans.map((span) => span.name);
    expect(names).toEqual(['verify requestState', 'mcp tools/call', 'mcp tools/call', 'read rounds']);
    const leg = spans[2]!;
    expect(spans[3]!.parentSpanId).toBe(leg.spanContext().spanId);
  });

  it('marks a step that fails, and passes its error on', async () => {
    await expect(
      underLeg(() =>
        inStepSpan(STEP_SPANS.recordRound, async () => {
          throw new Error('Postgres is down');
        }),
      ),
    ).rejects.toThrow('Postgres is down');
    expect(() =>
      underLeg(() =>
        inStepSpan(STEP_SPANS.startRound, () => {
          throw new Error('bad');
        }),
      ),
    ).toThrow('bad');
    const steps = exporter.getFinishedSpans().filter((span) => span.name !== 'mcp tools/call');
    expect(steps.map((span) => [span.name, span.status.code])).toEqual([
      ['record round', SpanStatusCode.ERROR],
      ['start round', SpanStatusCode.ERROR],
    ]);
  });

  it('makes no span outside a traced leg', async () => {
    expect(await inStepSpan(STEP_SPANS.awaitRound, async () => 'waited')).toBe('waited');
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
