/**
 * The bench's results as the JSON summary a run writes beside its printed report (rounded figures,
 * the ratios, the exit code), for the comparisons of later runs.
 */
import { round, type LatencySummary } from './stats';
import { ratios, type PhaseResult, type RunInfo, type TargetResult } from './results';
import { ratiosOverRuns } from './run-medians';

/** `results` are the figures (the medians, with several runs); `runs` each run's own, whose ratios it folds. */
export function summaryJson(
  info: RunInfo,
  results: readonly TargetResult[],
  exitCode: number,
  runs: ReadonlyArray<readonly TargetResult[]> = [results],
): string {
  const latency = (s: LatencySummary) => ({
    n: s.count,
    p50: round(s.p50, 2),
    p90: round(s.p90, 2),
    p99: round(s.p99, 2),
    max: round(s.max, 2),
    mean: round(s.mean, 2),
  });
  const phase = (p: PhaseResult | undefined) =>
    p && {
      concurrency: p.concurrency,
      completed: p.completed,
      failed: p.failed,
      wallMs: round(p.wallMs),
      exchangesPerSec: round(p.exchangesPerSec, 2),
      legsMs: p.legs.map(latency),
      exchangeMs: latency(p.exchange),
      requests: p.requests,
      stateOnlyResends: p.stateOnlyResends,
      cpuSecondsPer100: Object.fromEntries(Object.entries(p.cpuPer100).map(([k, v]) => [k, round(v, 3)])),
    };
  return (
    JSON.stringify({
      bench: 'compare',
      ...info,
      exitCode,
      targets: results.map((t) => ({
        target: t.target,
        startupMs: t.startupMs === undefined ? undefined : round(t.startupMs),
        error: t.error,
        scenarios: t.scenarios.map((s) => ({
          scenario: s.scenario,
          failures: s.failures.slice(0, 5),
          serial: phase(s.serial),
          loaded: phase(s.loaded),
          history: s.history,
          actions: s.actions,
        })),
      })),
      ratios: runs.length > 1 ? ratiosOverRuns(runs) : ratios(results),
    }) + '\n'
  );
}
