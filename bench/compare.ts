/**
 * `npm run bench`: the service against its baselines, in one run on one machine. Targets run one
 * after another (bench/targets.ts): the service as `npm run dev` runs it and as production runs it,
 * the official SDK's in-memory server, and bare Temporal with a regular and with a local activity;
 * each Temporal-backed target on a fresh dev server started the same way; and the production
 * server, docker-compose.yml run natively (Temporal on Postgres), with the service and with bare
 * Temporal on it (bench/compose-target.ts). Every scenario
 * (bench/scenarios.ts) runs on every target through the same load generator (bench/load.ts).
 *
 *   npm run bench                         all targets and scenarios, default sizes
 *   npm run bench -- --quick              a smoke run
 *   npm run bench -- --targets prod,bare-local --scenarios two --temporal-flags "--sqlite-pragma synchronous=full"
 *
 * stdout: the tables and a one-line JSON summary; stderr: progress. Exits 1 if an exchange failed,
 * 2 on a setup error, 130 when interrupted; everything started here is stopped in every case.
 */
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '../lib/paths';
import { runToCompletion } from '../cli/dev/child-processes';
import { note, runBench, type BenchRun } from './bench-run';
import { historyStats } from './history';
import { actionsPerExchange, readActions } from './temporal-actions';
import { monotonicMicros, writePhases, type ProfiledPhase } from './cpu-profile';
import { runMany, type RunResult } from './load';
import { readOptions, USAGE, type Options, type ScenarioName, type TargetName } from './options';
import { sampleCpu } from './proc-cpu';
import { medianResults, ratiosOverRuns } from './run-medians';
import {
  ROLES,
  render,
  summaryJson,
  type PhaseResult,
  type RunInfo,
  type ScenarioResult,
  type TargetResult,
} from './report';
import { SCENARIO_SPECS } from './scenarios';
import { summarize } from './stats';
import { startSharedPostgres, startTarget, TARGET_SPECS } from './targets';
import { type RunningTarget, type SharedPostgres } from './target-types';

/** How long the last exchange's trailing workflow task gets before the action counter is read. */
const ACTIONS_SETTLE_MS = 1_500;

/** The measured phases so far, for `--profile` (bench/cpu-profile.ts). */
const profiledPhases: ProfiledPhase[] = [];

/** Runs one measured phase and turns it, with the CPU the target's processes used meanwhile, into a result. */
async function measure(
  target: RunningTarget,
  scenario: ScenarioName,
  n: number,
  concurrency: number,
  opts: Options,
  stop: AbortSignal,
  thinkMs = 0,
): Promise<{ phase: PhaseResult; run: RunResult }> {
  const groups = Object.fromEntries(Object.entries(target.processes)) as Record<string, number[]>;
  const before = sampleCpu(groups);
  const startUs = monotonicMicros();
  const run = await runMany(
    target.call,
    SCENARIO_SPECS[scenario],
    n,
    concurrency,
    opts.exchangeTimeoutMs,
    stop,
    thinkMs,
  );
  const endUs = monotonicMicros();
  const after = sampleCpu(groups);
  const completed = run.timings.length;
  if (opts.profile) {
    profiledPhases.push({ target: target.spec.name, scenario, concurrency, completed, startUs, endUs });
    writePhases(opts.profile, profiledPhases);
  }
  const per100 = (name: string) => ((after[name]! - before[name]!) * 100) / Math.max(completed, 1);
  const cpuPer100: PhaseResult['cpuPer100'] = { client: per100('client') };
  let total = 0;
  for (const role of ROLES) {
    if (!groups[role]) continue;
    cpuPer100[role] = per100(role);
    total += cpuPer100[role];
  }
  cpuPer100.total = total;
  const legs = SCENARIO_SPECS[scenario].legs.map((_, i) => summarize(run.timings.map((t) => t.legMs[i]!)));
  return {
    run,
    phase: {
      concurrency,
      completed,
      failed: run.failures.length,
      wallMs: run.wallMs,
      exchangesPerSec: completed / (run.wallMs / 1000),
      legs,
      exchange: summarize(run.timings.map((t) => t.totalMs)),
      requests: run.timings.reduce((s, t) => s + t.requests, 0),
      stateOnlyResends: run.timings.reduce((s, t) => s + t.stateOnlyResends, 0),
      cpuPer100,
    },
  };
}

async function runScenario(
  target: RunningTarget,
  scenario: ScenarioName,
  opts: Options,
  stop: AbortSignal,
): Promise<ScenarioResult> {
  const result: ScenarioResult = { target: target.spec.name, scenario, failures: [] };
  const since = new Date();
  const failed = (run: RunResult, what: string) => {
    const why = target.exited();
    if (why) run.failures.unshift(why);
    if (run.failures.length === 0) return false;
    result.failures.push(...run.failures.map((f) => `${what}: ${f}`));
    return true;
  };
  const spec = SCENARIO_SPECS[scenario];
  note(`${target.spec.name} / ${scenario}: warm-up ${opts.warmup}`);
  const warm = await runMany(target.call, spec, opts.warmup, opts.concurrency, opts.exchangeTimeoutMs, stop);
  if (failed(warm, 'warm-up')) return result;
  const metricsUrl = target.temporal?.metricsUrl;
  // The counter is exported a moment after the action: the warm-up's last ones are let in first.
  if (metricsUrl) await sleep(ACTIONS_SETTLE_MS);
  const actionsBefore = metricsUrl ? await readActions(metricsUrl).catch(() => undefined) : undefined;
  note(`${target.spec.name} / ${scenario}: ${opts.n} at concurrency 1`);
  const serial = await measure(target, scenario, opts.n, 1, opts, stop, opts.thinkMs);
  result.serial = serial.phase;
  if (failed(serial.run, 'concurrency 1')) return result;
  note(`${target.spec.name} / ${scenario}: ${opts.nConcurrent} at concurrency ${opts.concurrency}`);
  const loaded = await measure(target, scenario, opts.nConcurrent, opts.concurrency, opts, stop);
  result.loaded = loaded.phase;
  if (failed(loaded.run, `concurrency ${opts.concurrency}`)) return result;
  if (metricsUrl && actionsBefore) {
    // A reply can leave before its workflow task completes (and with it the exchange's last commands).
    await sleep(ACTIONS_SETTLE_MS);
    try {
      const exchanges = result.serial.completed + result.loaded.completed;
      result.actions = actionsPerExchange(actionsBefore, await readActions(metricsUrl), exchanges);
    } catch (error) {
      note(`${target.spec.name} / ${scenario}: no action counts: ${(error as Error).message}`);
    }
  }
  if (target.temporal) {
    try {
      result.history = await historyStats(target.temporal.address, target.temporal.taskQueue, since);
    } catch (error) {
      note(`${target.spec.name} / ${scenario}: no history counts: ${(error as Error).message}`);
    }
  }
  const legs = result.serial.legs.map((l, i) => `leg${i + 1} p50 ${l.p50.toFixed(1)} ms`).join(', ');
  note(`${target.spec.name} / ${scenario}: ${legs}; ${result.loaded.exchangesPerSec.toFixed(1)} ex/s`);
  return result;
}

/**
 * One target, started fresh: every scenario on it, then stopped. Its exit code: 1 when an
 * exchange failed, 2 when it did not start or stop.
 */
async function measureTarget(
  name: TargetName,
  dir: string,
  postgres: () => Promise<SharedPostgres>,
  opts: Options,
  run: BenchRun,
): Promise<{ result: TargetResult; exitCode: number }> {
  const { signal } = run;
  const spec = TARGET_SPECS[name];
  const result: TargetResult = { target: name, scenarios: [] };
  let exitCode = 0;
  note(`${name}: starting (${spec.label})`);
  const t0 = performance.now();
  let running: RunningTarget;
  try {
    running = await startTarget(spec, {
      dir,
      temporalFlags: opts.temporalFlags,
      logLevel: opts.logLevel,
      postgres,
      signal,
      ...(opts.profile ? { profileDir: opts.profile } : {}),
    });
  } catch (error) {
    result.error = signal.aborted ? 'interrupted' : (error as Error).message;
    note(`${name}: did not start: ${(error as Error).stack ?? String(error)}`);
    if (!signal.aborted) run.keepScratch();
    return { result, exitCode: signal.aborted ? 0 : 2 };
  }
  result.startupMs = performance.now() - t0;
  try {
    for (const scenario of opts.scenarios) {
      if (signal.aborted) break;
      const outcome = await runScenario(running, scenario, opts, signal);
      result.scenarios.push(outcome);
      if (outcome.failures.length && !signal.aborted) {
        exitCode = 1;
        run.keepScratch();
        for (const f of outcome.failures.slice(0, 3)) note(`FAILED ${name} / ${scenario}: ${f}`);
      }
    }
  } finally {
    note(`${name}: stopping`);
    await running.stop().catch((error: unknown) => {
      exitCode = 2;
      note(`${name}: did not stop cleanly: ${(error as Error).message}`);
    });
  }
  return { result, exitCode };
}

async function main(run: BenchRun): Promise<number> {
  let opts: Options;
  try {
    opts = readOptions(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const { scratch, signal } = run;
  if (opts.profile) {
    opts.profile = path.resolve(opts.profile);
    mkdirSync(opts.profile, { recursive: true });
    note(`profiling into ${opts.profile}; read it with npm run bench:profile-summary -- ${opts.profile}`);
  }
  let exitCode = 0;
  let postgres: Promise<SharedPostgres> | undefined;
  const runs: TargetResult[][] = [];
  const info: RunInfo = {
    date: new Date().toISOString(),
    nproc: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    node: process.version,
    platform: `${os.platform()}/${os.arch()}`,
    loadAverageStart: os.loadavg(),
    loadAverageEnd: [],
    n: opts.n,
    nConcurrent: opts.nConcurrent,
    concurrency: opts.concurrency,
    warmup: opts.warmup,
    thinkMs: opts.thinkMs,
    runs: opts.runs,
    temporalFlags: opts.temporalFlags,
  };

  try {
    if ((opts.targets.includes('prod') || opts.targets.includes('compose')) && opts.build) {
      note('npm run build (for the production targets)');
      await runToCompletion('npm', ['run', 'build', '--silent'], projectRoot(__dirname));
    }
    for (let runIndex = 0; runIndex < opts.runs && !signal.aborted; runIndex++) {
      const results: TargetResult[] = [];
      runs.push(results);
      if (opts.runs > 1) note(`run ${runIndex + 1} of ${opts.runs}`);
      for (const name of opts.targets) {
        if (signal.aborted) break;
        const dir = path.join(scratch, opts.runs > 1 ? `${name}-run${runIndex + 1}` : name);
        const postgresOnce = () => (postgres ??= startSharedPostgres(path.join(scratch, 'postgres')));
        const measured = await measureTarget(name, dir, postgresOnce, opts, run);
        results.push(measured.result);
        exitCode = Math.max(exitCode, measured.exitCode);
      }
    }
  } catch (error) {
    if (!signal.aborted) {
      exitCode = 2;
      note(`error: ${(error as Error).stack ?? String(error)}`);
    }
  } finally {
    const aborted = run.abortedBy();
    if (aborted === 'interrupt') exitCode = 130;
    else if (aborted === 'fatal') exitCode ||= 2;
    // The report first: whatever the last teardown does, what was measured is printed.
    info.loadAverageEnd = os.loadavg();
    if (runs.some((run) => run.length)) {
      const results = runs.length === 1 ? runs[0]! : medianResults(runs);
      process.stdout.write(render(info, results, opts.scenarios, runs.length > 1 ? ratiosOverRuns(runs) : undefined));
      process.stdout.write(summaryJson(info, results, exitCode, runs));
    }
    if (postgres) {
      await postgres
        .then((pg) => pg.stop())
        .catch((error: unknown) => note(`Postgres did not stop cleanly: ${(error as Error).message}`));
    }
  }
  return exitCode;
}

runBench('durable-mcp-bench-', main);
