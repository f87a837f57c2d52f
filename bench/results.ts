/**
 * What a bench run measures, as data: each target's result per scenario and phase (latency per leg,
 * exchanges/s, CPU per 100 exchanges by role, the history), the run's own facts, and the ratios of each
 * service row to the baselines it is measured against.
 */
import type { HistoryStats } from './history';
import type { ScenarioName, TargetName } from './options';
import { SCENARIO_SPECS } from './scenarios';
import { round, type LatencySummary } from './stats';
import type { Role } from './target-types';

export const ROLES: readonly Role[] = ['temporal', 'api', 'worker', 'postgres', 'upstream'];

type TargetCpu = Partial<Record<Role | 'total' | 'client', number>>;

export interface PhaseResult {
  concurrency: number;
  completed: number;
  failed: number;
  wallMs: number;
  exchangesPerSec: number;
  /** One summary per leg. */
  legs: LatencySummary[];
  exchange: LatencySummary;
  requests: number;
  stateOnlyResends: number;
  /** CPU seconds per 100 completed exchanges, by role, `total` (the roles) and `client` (the bench itself). */
  cpuPer100: TargetCpu;
}

export interface ScenarioResult {
  target: TargetName;
  scenario: ScenarioName;
  serial?: PhaseResult;
  loaded?: PhaseResult;
  history?: HistoryStats;
  /** Temporal's billable actions per measured exchange, by the server's own counter (bench/temporal-actions.ts). */
  actions?: { total: number; byType: Record<string, number> };
  failures: string[];
}

export interface TargetResult {
  target: TargetName;
  startupMs?: number;
  error?: string;
  scenarios: ScenarioResult[];
}

export interface RunInfo {
  date: string;
  nproc: number;
  cpuModel: string;
  node: string;
  platform: string;
  loadAverageStart: number[];
  loadAverageEnd: number[];
  n: number;
  nConcurrent: number;
  concurrency: number;
  warmup: number;
  /** The pause before each answer leg at concurrency 1 (absent in summaries written before it). */
  thinkMs?: number;
  /** Whole runs in this invocation (bench/run-medians.ts folds them). */
  runs: number;
  temporalFlags: string[];
}

export const SERVICE_ROWS: readonly TargetName[] = ['dev', 'prod', 'gateway', 'gateway-local', 'compose'];
/**
 * Each service row against the baselines it is measured by: the in-memory SDK (no durability) for
 * all, bare Temporal on the same server (the dev server, or the compose topology's on Postgres),
 * and on the dev server the engine's floor with no HTTP leg. The gateway is measured against the
 * server it stands in front of called directly (`sdk`: what the gateway costs in all) and against
 * the same service running the tools itself (`dev`: what going upstream adds to a local handler);
 * the gateway with local rounds against those and the gateway with regular ones (what running an
 * upstream's rounds inside the workflow task saves).
 */
export const BASELINES_OF: Record<string, readonly TargetName[]> = {
  dev: ['sdk', 'bare-local', 'bare-split', 'floor'],
  prod: ['sdk', 'bare-local', 'bare-split', 'floor'],
  gateway: ['sdk', 'dev'],
  'gateway-local': ['sdk', 'dev', 'gateway'],
  compose: ['sdk', 'bare-compose'],
};

export interface Ratio {
  scenario: ScenarioName;
  service: TargetName;
  baseline: TargetName;
  legP50: Array<number | null>;
  legP99: Array<number | null>;
  exchangesPerSec: number | null;
  cpuPerExchange: number | null;
  actionsPerExchange: number | null;
}

const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0 ? null : round(a / b, 2);

/**
 * A baseline's CPU per 100 exchanges: its processes', and for the `floor`, whose client runs in
 * the bench's process, the bench's too (the load generator's share of it is small without HTTP).
 */
function baselineCpu(baseline: TargetName, cpu: TargetCpu): number | undefined {
  if (baseline !== 'floor' || cpu.total === undefined) return cpu.total;
  return cpu.total + (cpu.client ?? 0);
}

export function ratios(results: readonly TargetResult[]): Ratio[] {
  const find = (target: TargetName, scenario: ScenarioName) =>
    results.find((t) => t.target === target)?.scenarios.find((s) => s.scenario === scenario && s.failures.length === 0);
  const out: Ratio[] = [];
  for (const scenario of Object.keys(SCENARIO_SPECS) as ScenarioName[]) {
    for (const service of SERVICE_ROWS) {
      const s = find(service, scenario);
      if (!s?.serial || !s.loaded) continue;
      for (const baseline of BASELINES_OF[service] ?? []) {
        const b = find(baseline, scenario);
        if (!b?.serial || !b.loaded) continue;
        out.push({
          scenario,
          service,
          baseline,
          legP50: s.serial.legs.map((leg, i) => ratio(leg.p50, b.serial!.legs[i]?.p50)),
          legP99: s.serial.legs.map((leg, i) => ratio(leg.p99, b.serial!.legs[i]?.p99)),
          exchangesPerSec: ratio(s.loaded.exchangesPerSec, b.loaded.exchangesPerSec),
          cpuPerExchange: ratio(s.loaded.cpuPer100.total, baselineCpu(baseline, b.loaded.cpuPer100)),
          actionsPerExchange: ratio(s.actions?.total, b.actions?.total),
        });
      }
    }
  }
  return out;
}
