import { refusalKind } from '../../bench/fair-share-load';
import { FAIR_SHARE_CASES } from '../../bench/fair-share-cases';
import { renderFairShare, type CaseResult } from '../../bench/fair-share-report';

const quiet = (first: number[], answer: number[]) => ({ firstLegMs: first, answerLegMs: answer, failures: [] });

describe('the fair-share bench', () => {
  it('counts a quota refusal, a capacity refusal and anything else apart', () => {
    expect(refusalKind('HTTP 429: JSON-RPC error -32000 Quota per-principal reached: 30 calls a minute')).toBe(
      'quotaRefused',
    );
    expect(refusalKind('HTTP 429: JSON-RPC error -32000 Server busy: too many requests in progress')).toBe(
      'capacityRefused',
    );
    expect(refusalKind('leg 1: expected "done", got {}')).toBe('failed');
  });

  it("reports the quiet caller's legs against the idle case's, and the flood's calls per second", () => {
    const [idle, flood] = FAIR_SHARE_CASES;
    const results: CaseResult[] = [
      { case: idle!, quiet: quiet([10, 20], [5, 5]) },
      {
        case: flood!,
        quiet: quiet([40, 80], [10, 10]),
        flood: {
          offered: 100,
          completed: 20,
          quotaRefused: 0,
          capacityRefused: 80,
          failed: 0,
          dropped: 0,
          seconds: 10,
        },
      },
    ];
    const text = renderFairShare(results, { floodFactor: 10, quietExchanges: 2, thinkMs: 0, sustainedPerS: 2 });
    // p50 10 → 40 is 4x; p99 20 → 80 is 4x; answers 5 → 10 is 2x.
    expect(text).toMatch(
      /flood, no quotas, fairness off\s+40\.0\s+80\.0\s+4\.00x\s+4\.00x\s+10\.0\s+10\.0\s+2\.00x\s+2\.00x\s+0/,
    );
    expect(text).toMatch(/flood, no quotas, fairness off\s+10\.0\s+2\.0\s+0\s+80/);
    const summary = JSON.parse(text.trim().split('\n').at(-1)!);
    expect(summary.cases[1]).toMatchObject({ case: 'flood', firstLeg: { p50: 40, p99: 80 } });
  });
});
