/**
 * `npm run bench:open-waits`: the service holding many exchanges that wait on a person. Opens
 * --open two-round exchanges (the first leg only, whose ask nobody answers yet) at --concurrency,
 * and at 0, at each checkpoint and at --open open measures each process's memory, Temporal's and
 * Postgres's disk, and the latency of --sample first legs sent one at a time; then answers every
 * open exchange and reports the answer throughput and the cost of one open exchange per stretch.
 *
 *   npm run bench:open-waits                     10,000 open, measured at 0, 5,000 and 10,000
 *   npm run bench:open-waits -- --quick          a smoke run (400 open)
 *   npm run bench:open-waits -- --heap           also each process's heap after a full GC (bench/open-waits-heap.ts)
 *
 * The service gets a round timeout and requestState lifetime longer than the run, and a running-
 * exchange budget above --open, so no exchange ends before it is answered. stdout: the tables and a
 * one-line JSON summary; stderr: progress. Exit codes as the other bench (bench/bench-run.ts).
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { projectRoot } from '../lib/paths';
import { runToCompletion } from '../cli/dev/child-processes';
import { filesBytes, folderBytes } from './disk-usage';
import { inLanes, runLeg, runMany } from './load';
import { note, runBench, type BenchRun } from './bench-run';
import {
  MEMORY_ROLES,
  renderOpenWaits,
  targets,
  type Checkpoint,
  type MemoryRole,
  type OpenWaitsResult,
} from './open-waits-report';
import { OPEN_WAITS_USAGE, readOpenWaitsOptions, type OpenWaitsOptions } from './open-waits-options';
import { readHeaps, renderHeaps, writeSnapshots, type HeapCheckpoint } from './open-waits-heap';
import { treeMemory } from './proc-memory';
import { SCENARIO_SPECS } from './scenarios';
import { summarize } from './stats';
import { startSharedPostgres, startTarget, TARGET_SPECS } from './targets';
import { type RunningTarget, type SharedPostgres } from './target-types';

const TWO_ROUNDS = SCENARIO_SPECS.two;
/** Long enough that nothing expires during a run of any size this bench is meant for. */
const RUN_LIFETIME_MS = String(6 * 3600_000);
/** Time for freed memory and the last writes to settle before a checkpoint is read. */
const SETTLE_MS = 3_000;
const LEG_TIMEOUT_MS = 120_000;

async function main(run: BenchRun): Promise<number> {
  let opts: OpenWaitsOptions;
  try {
    opts = readOpenWaitsOptions(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${OPEN_WAITS_USAGE}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${OPEN_WAITS_USAGE}\n`);
    return 0;
  }
  const { signal, scratch } = run;
  if (opts.target === 'prod' && opts.build) {
    note('npm run build (for the production target)');
    await runToCompletion('npm', ['run', 'build', '--silent'], projectRoot(__dirname));
  }
  let postgres: Promise<SharedPostgres> | undefined;
  const postgresDir = path.join(scratch, 'postgres');
  const targetDir = path.join(scratch, opts.target);
  const samples = opts.sample * (opts.checkpoints.length + 2);
  let target: RunningTarget | undefined;
  try {
    note(`${opts.target}: starting`);
    target = await startTarget(TARGET_SPECS[opts.target], {
      dir: targetDir,
      temporalFlags: opts.temporalFlags,
      logLevel: opts.logLevel,
      postgres: () => (postgres ??= startSharedPostgres(postgresDir)),
      signal,
      inspect: opts.heap,
      serviceEnv: {
        ROUND_TIMEOUT_MS: RUN_LIFETIME_MS,
        REQUEST_STATE_TTL_MS: RUN_LIFETIME_MS,
        MAX_RUNNING_EXCHANGES: String(opts.open + samples + opts.concurrency + 100),
      },
    });
    const heaps: HeapCheckpoint[] = [];
    const result = await measure(
      target,
      opts,
      signal,
      { temporalDb: path.join(targetDir, 'temporal.db'), postgresDir },
      opts.heap ? { snapshotDir: opts.heapSnapshotDir, rows: heaps } : undefined,
    );
    process.stdout.write(renderOpenWaits(result));
    if (opts.heap) process.stdout.write(`\n${renderHeaps(heaps)}`);
    process.stdout.write(
      `${JSON.stringify({ bench: 'open-waits', target: opts.target, date: new Date().toISOString(), ...result, targets: targets(result), ...(opts.heap ? { heaps } : {}) })}\n`,
    );
    if (result.failures.length) run.keepScratch();
    return result.failures.length ? 1 : 0;
  } finally {
    await target?.stop().catch((error: unknown) => note(`target did not stop cleanly: ${(error as Error).message}`));
    await postgres
      ?.then((pg) => pg.stop())
      .catch((error: unknown) => note(`Postgres did not stop cleanly: ${(error as Error).message}`));
  }
}

async function measure(
  target: RunningTarget,
  opts: OpenWaitsOptions,
  signal: AbortSignal,
  disk: { temporalDb: string; postgresDir: string },
  /** Under --heap: where each checkpoint's heap readings go, and the snapshots' folder if any. */
  heaps?: { snapshotDir?: string; rows: HeapCheckpoint[] },
): Promise<OpenWaitsResult> {
  const result: OpenWaitsResult = {
    checkpoints: [],
    openingRates: [],
    answered: 0,
    answersPerSec: 0,
    failures: [],
    oneProcess: TARGET_SPECS[target.spec.name].oneProcess,
  };
  const fail = (what: string, failures: string[]) => {
    const why = target.exited();
    result.failures.push(...(why ? [why] : []), ...failures.map((f) => `${what}: ${f}`));
    return result.failures.length > 0;
  };

  note(`warm-up: ${opts.warmup} whole exchanges`);
  const warm = await runMany(target.call, TWO_ROUNDS, opts.warmup, opts.concurrency, LEG_TIMEOUT_MS, signal);
  if (fail('warm-up', warm.failures)) return result;

  /** The requestStates of the open exchanges: what their answers will carry. */
  const open: string[] = [];
  const openOne = async () => {
    const leg = await runLeg(
      target.call,
      TWO_ROUNDS,
      0,
      undefined,
      AbortSignal.any([signal, AbortSignal.timeout(LEG_TIMEOUT_MS)]),
    );
    open.push(String(leg.result.requestState));
    return leg.ms;
  };

  for (const goal of [0, ...opts.checkpoints, opts.open]) {
    const missing = goal - open.length;
    if (missing > 0) {
      note(`opening ${missing} exchanges (to ${goal} open)`);
      const opening = await inLanes(missing, opts.concurrency, signal, async () => void (await openOne()));
      result.openingRates.push(missing / (opening.wallMs / 1000));
      if (fail(`opening to ${goal}`, opening.failures)) return result;
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const checkpoint: Omit<Checkpoint, 'firstLeg'> = {
      open: open.length,
      memory: memoryOf(target),
      temporalDiskBytes: filesBytes(disk.temporalDb),
      postgresDiskBytes: folderBytes(disk.postgresDir),
    };
    if (heaps) {
      // After the RSS reading, which their full GCs would change.
      note(`${open.length} open: reading heaps after a full GC`);
      const heap = await readHeaps(target.inspectors ?? {});
      heaps.rows.push({ open: open.length, rssBytes: checkpoint.memory, rssAfterGcBytes: memoryOf(target), heap });
      if (heaps.snapshotDir) await writeSnapshots(target.inspectors ?? {}, open.length, heaps.snapshotDir);
    }
    note(`${open.length} open: timing ${opts.sample} first legs one at a time`);
    const times: number[] = [];
    const sampling = await inLanes(opts.sample, 1, signal, async () => void times.push(await openOne()));
    result.checkpoints.push({ ...checkpoint, firstLeg: summarize(times) });
    if (fail(`sampling at ${checkpoint.open}`, sampling.failures)) return result;
  }

  note(`answering ${open.length} open exchanges`);
  const t0 = performance.now();
  const answering = await inLanes(open.length, opts.concurrency, signal, async (index) => {
    await runLeg(
      target.call,
      TWO_ROUNDS,
      1,
      open[index],
      AbortSignal.any([signal, AbortSignal.timeout(LEG_TIMEOUT_MS)]),
    );
    result.answered += 1;
  });
  result.answersPerSec = result.answered / ((performance.now() - t0) / 1000);
  fail('answering', answering.failures);
  return result;
}

function memoryOf(target: RunningTarget): Partial<Record<MemoryRole, number>> {
  const memory: Partial<Record<MemoryRole, number>> = {};
  for (const role of MEMORY_ROLES) {
    const roots = target.processes[role];
    if (!roots) continue;
    const tree = treeMemory(roots);
    // Postgres's backends share its buffers: PSS sums them once. A single process's RSS is what a limit sees.
    memory[role] = role === 'postgres' ? tree.pssBytes : tree.rssBytes;
  }
  return memory;
}

runBench('durable-mcp-open-waits-', main);
