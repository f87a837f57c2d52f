/**
 * The fair-share bench's tables: per case, the quiet caller's first legs and answer legs (p50,
 * p99 and their ratios to the idle case's) and what became of the flood's calls. Pure.
 */
import type { FloodCount, QuietRun } from './fair-share-load';
import type { FairShareCase } from './fair-share-cases';
import { table } from './report';
import { round, summarize } from './stats';

export interface CaseResult {
  case: FairShareCase;
  quiet: QuietRun;
  flood?: FloodCount;
  quotaPerMinute?: number;
}

export interface FairShareSettings {
  floodFactor: number;
  quietExchanges: number;
  thinkMs: number;
  sustainedPerS: number;
}

const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '-');
const ratio = (value: number, base: number) =>
  Number.isFinite(value) && Number.isFinite(base) && base > 0 ? `${(value / base).toFixed(2)}x` : '-';
const perS = (count: number, seconds: number) => (seconds > 0 ? (count / seconds).toFixed(1) : '-');

export function renderFairShare(results: readonly CaseResult[], settings: FairShareSettings): string {
  const idle = results.find((r) => !r.case.flood);
  const base = {
    first: summarize(idle?.quiet.firstLegMs ?? []),
    answer: summarize(idle?.quiet.answerLegMs ?? []),
  };
  const lines = [
    `Fair share: a flood at ${settings.floodFactor}x the sustained ${settings.sustainedPerS.toFixed(1)} exchanges/s, ` +
      `a quiet caller's ${settings.quietExchanges} two-round exchanges answered after ${settings.thinkMs} ms`,
    '',
    "The quiet caller's legs (ms; ratio to idle):",
    ...table(
      [
        'case',
        'first p50',
        'first p99',
        'p50 ratio',
        'p99 ratio',
        'answer p50',
        'answer p99',
        'p50 ratio',
        'p99 ratio',
        'failed',
      ],
      results.map((r) => {
        const first = summarize(r.quiet.firstLegMs);
        const answer = summarize(r.quiet.answerLegMs);
        return [
          r.case.label,
          ms(first.p50),
          ms(first.p99),
          ratio(first.p50, base.first.p50),
          ratio(first.p99, base.first.p99),
          ms(answer.p50),
          ms(answer.p99),
          ratio(answer.p50, base.answer.p50),
          ratio(answer.p99, base.answer.p99),
          String(r.quiet.failures.length),
        ];
      }),
    ),
    '',
    "The flood's calls (per second over the case):",
    ...table(
      ['case', 'offered/s', 'completed/s', 'quota refused', 'capacity refused', 'failed', 'dropped', 'quota/min'],
      results
        .filter((r) => r.flood)
        .map((r) => {
          const f = r.flood!;
          return [
            r.case.label,
            perS(f.offered, f.seconds),
            perS(f.completed, f.seconds),
            String(f.quotaRefused),
            String(f.capacityRefused),
            String(f.failed),
            String(f.dropped),
            r.quotaPerMinute === undefined ? '-' : String(r.quotaPerMinute),
          ];
        }),
    ),
  ];
  for (const r of results)
    for (const failure of r.quiet.failures.slice(0, 3)) lines.push(`quiet failure (${r.case.name}): ${failure}`);
  const summary = {
    bench: 'fair-share',
    ...settings,
    sustainedPerS: round(settings.sustainedPerS),
    cases: results.map((r) => {
      const first = summarize(r.quiet.firstLegMs);
      const answer = summarize(r.quiet.answerLegMs);
      return {
        case: r.case.name,
        firstLeg: { p50: round(first.p50), p99: round(first.p99) },
        answerLeg: { p50: round(answer.p50), p99: round(answer.p99) },
        quietFailures: r.quiet.failures.length,
        ...(r.flood ? { flood: r.flood } : {}),
      };
    }),
  };
  lines.push('', JSON.stringify(summary));
  return `${lines.join('\n')}\n`;
}
