/**
 * Several runs of the bench in one invocation, each target started fresh in every run and the
 * targets interleaved run by run, folded into one result: every figure the median of its runs, and
 * every ratio taken within its run first, then the median and range of those. One noisy run then
 * moves neither a figure nor a verdict. Pure, so bench/self-check.ts pins it.
 */
import { ratios, type Ratio, type TargetResult } from './results';

/** The median of some numbers (the mean of the middle two for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const finite = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (!finite.length) return Number.NaN;
  const mid = Math.floor(finite.length / 2);
  return finite.length % 2 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2;
}

/**
 * Same-shaped values folded leaf by leaf: numbers into their median, arrays and objects key by
 * key, anything else (a name, a sample history) taken from the first that has it.
 */
export function medianOf<T>(values: readonly T[]): T {
  const present = values.filter((v) => v !== undefined && v !== null);
  if (!present.length) return values[0] as T;
  const first = present[0];
  if (typeof first === 'number') return median(present as number[]) as T;
  if (Array.isArray(first)) {
    const length = Math.max(...present.map((v) => (v as unknown[]).length));
    return Array.from({ length }, (_, i) => medianOf(present.map((v) => (v as unknown[])[i]))) as T;
  }
  if (typeof first === 'object') {
    const keys = new Set(present.flatMap((v) => Object.keys(v as object)));
    return Object.fromEntries(
      [...keys].map((k) => [k, medianOf(present.map((v) => (v as Record<string, unknown>)[k]))]),
    ) as T;
  }
  return first as T;
}

/**
 * Each target and scenario over the runs: the median of every figure of the runs in which it
 * completed; the failures of every run, marked with the run's number.
 */
export function medianResults(runs: ReadonlyArray<readonly TargetResult[]>): TargetResult[] {
  const names = [...new Set(runs.flatMap((run) => run.map((t) => t.target)))];
  return names.map((name) => {
    const per = runs.map((run) => run.find((t) => t.target === name));
    const measured = per.filter((t): t is TargetResult => t !== undefined && t.error === undefined);
    const scenarioNames = [...new Set(measured.flatMap((t) => t.scenarios.map((s) => s.scenario)))];
    const error = per.find((t) => t?.error)?.error;
    return {
      target: name,
      startupMs: median(measured.map((t) => t.startupMs ?? Number.NaN)),
      ...(measured.length === 0 && error ? { error } : {}),
      scenarios: scenarioNames.map((scenario) => {
        const all = per.map((t) => t?.scenarios.find((s) => s.scenario === scenario));
        const clean = all.filter((s) => s && s.failures.length === 0);
        const failures = all.flatMap((s, i) => (s?.failures ?? []).map((f) => `run ${i + 1}: ${f}`));
        return { ...medianOf(clean.length ? clean : all.filter(Boolean)), scenario, target: name, failures };
      }),
    };
  });
}

export interface RatioOverRuns {
  /** The median of the runs' ratios, figure by figure. */
  median: Ratio;
  min: Ratio;
  max: Ratio;
  runs: number;
}

/** Each run's ratios, grouped by scenario, service and baseline: their median, min and max. */
export function ratiosOverRuns(runs: ReadonlyArray<readonly TargetResult[]>): RatioOverRuns[] {
  const groups = new Map<string, Ratio[]>();
  for (const run of runs)
    for (const r of ratios(run)) {
      const key = `${r.scenario}/${r.service}/${r.baseline}`;
      groups.set(key, [...(groups.get(key) ?? []), r]);
    }
  const pick = (rs: Ratio[], choose: (values: number[]) => number): Ratio => {
    const fold = (get: (r: Ratio) => number | null) => {
      const values = rs.map(get).filter((v): v is number => v !== null);
      return values.length ? choose(values) : null;
    };
    const legs = Math.max(...rs.map((r) => r.legP50.length));
    return {
      scenario: rs[0]!.scenario,
      service: rs[0]!.service,
      baseline: rs[0]!.baseline,
      legP50: Array.from({ length: legs }, (_, i) => fold((r) => r.legP50[i] ?? null)),
      legP99: Array.from({ length: legs }, (_, i) => fold((r) => r.legP99[i] ?? null)),
      exchangesPerSec: fold((r) => r.exchangesPerSec),
      cpuPerExchange: fold((r) => r.cpuPerExchange),
      actionsPerExchange: fold((r) => r.actionsPerExchange),
    };
  };
  return [...groups.values()].map((rs) => ({
    median: pick(rs, median),
    min: pick(rs, (v) => Math.min(...v)),
    max: pick(rs, (v) => Math.max(...v)),
    runs: rs.length,
  }));
}
