/**
 * `npm run bench:answer-leg`: where the answer leg's milliseconds go. Runs --legs two-round
 * exchanges one at a time on three targets started together and taking turns exchange by exchange
 * (so a slow second of the machine falls on all three): the service untraced, bare Temporal behind
 * HTTP (`bare-local`) and the engine's floor with no HTTP leg (`floor`), for the leg-2 p50 and its
 * ratio to each; then, on its own, the service with every trace kept and sent to a collector in this
 * process (bench/otlp-receiver.ts), whose spans split each leg 2 into its stages
 * (bench/leg-breakdown.ts): the median and p90 of each.
 *
 *   npm run bench:answer-leg                      100 legs per target, the dev target
 *   npm run bench:answer-leg -- --legs 300 --target prod
 *   npm run bench:answer-leg -- --runs 5          all of that five times, each on targets started
 *                                                 fresh: medians, and the ratios' ranges
 *
 * Each answer is sent --think-ms after its question came back (200 by default: a person reads the
 * question first), so it reaches an idle workflow held in the worker's cache, as a person's answer
 * does. Sent at once (--think-ms 0), an answer races the tail of the workflow task that asked it,
 * which favours whichever target is quickest to reply, and is not what a human round does.
 *
 * Tracing costs the traced leg its own spans and one read (the exchange's trace context, shown as
 * its own stage), so its total is above the untraced one: the stages say where the time goes, the
 * untraced p50 what a client waits. stdout: the tables and a one-line JSON summary.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { projectRoot } from '../lib/paths';
import { runToCompletion } from '../cli/dev/child-processes';
import { note, runBench, type BenchRun } from './bench-run';
import { integerOption, list, parseFlags } from './flags';
import { legStages, summarizeStages, type Stage, type TimedLeg } from './leg-breakdown';
import { runLeg } from './load';
import { startOtlpReceiver } from './otlp-receiver';
import { table } from './report';
import { SCENARIO_SPECS } from './scenarios';
import { percentile } from './stats';
import { startSharedPostgres, startTarget, TARGET_SPECS } from './targets';
import type { RunningTarget, SharedPostgres } from './target-types';

const TWO_ROUNDS = SCENARIO_SPECS.two;
const LEG_TIMEOUT_MS = 60_000;
/** The service's span exporter sends a batch a second: time for the last one. */
const EXPORT_SETTLE_MS = 2_500;
const SERVICE_TARGETS = ['dev', 'prod'] as const;

const USAGE = `npm run bench:answer-leg -- [--legs N] [--warmup N] [--runs N] [--think-ms N] [--target dev|prod] [--no-build]

  --legs N         two-round exchanges per target, one at a time (default 100)
  --warmup N       whole exchanges run first and thrown away, per target (default 10)
  --runs N         the untraced service, bare-local and floor N times, each time started fresh
                   and all at once, taking turns exchange by exchange; the p50s are the medians of
                   the runs, a ratio the median (and range) of the ratios taken within each run
                   (default 1)
  --think-ms N     the pause between a question's arrival and its answer (default 200)
  --target T       the service as npm run dev runs it (dev, default) or as production does (prod)
  --no-build       for prod: use dist/ as it is`;

const epochMs = () => performance.timeOrigin + performance.now();

async function main(run: BenchRun): Promise<number> {
  let legs: number,
    warmup: number,
    runs: number,
    thinkMs: number,
    target: (typeof SERVICE_TARGETS)[number],
    build: boolean;
  try {
    const args = parseFlags(
      process.argv.slice(2),
      ['no-build', 'help'],
      ['legs', 'warmup', 'runs', 'think-ms', 'target'],
    );
    if (args.has('help')) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const int = integerOption(args, process.env);
    legs = int('legs', 'BENCH_LEGS', 100, 1);
    warmup = int('warmup', 'BENCH_WARMUP', 10, 0);
    runs = int('runs', 'BENCH_RUNS', 1, 1);
    thinkMs = int('think-ms', 'BENCH_THINK_MS', 200, 0);
    target = list(args.get('target') ?? 'dev', SERVICE_TARGETS, 'target')[0]!;
    build = !args.has('no-build');
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { signal, scratch } = run;
  if (target === 'prod' && build) {
    note('npm run build (for the production target)');
    await runToCompletion('npm', ['run', 'build', '--silent'], projectRoot(__dirname));
  }
  let postgres: Promise<SharedPostgres> | undefined;
  const context = (name: string, serviceEnv?: Record<string, string>) => ({
    dir: path.join(scratch, name),
    temporalFlags: [],
    logLevel: 'warn',
    postgres: () => (postgres ??= startSharedPostgres(path.join(scratch, 'postgres'))),
    signal,
    ...(serviceEnv ? { serviceEnv } : {}),
  });
  const collector = await startOtlpReceiver();
  try {
    const pace = { legs, warmup, thinkMs, signal };
    // The service and the baselines take turns exchange by exchange, fresh every run (interleavedLegs).
    const untracedRuns: number[] = [];
    const bareRuns: number[] = [];
    const floorRuns: number[] = [];
    for (let r = 1; r <= runs; r++) {
      const suffix = runs > 1 ? `-run${r}` : '';
      const [service, bare, floor] = await interleavedLegs(
        [target, 'bare-local', 'floor'],
        (name) => context(`${name === target ? `${target}-untraced` : name}${suffix}`),
        pace,
      );
      untracedRuns.push(p50(service!));
      bareRuns.push(p50(bare!));
      floorRuns.push(p50(floor!));
    }
    const traced = await timedLegs(
      target,
      context(`${target}-traced`, {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_TRACES_SAMPLER: 'always_on',
        OTEL_BSP_MAX_QUEUE_SIZE: '100000',
      }),
      pace,
    );
    const perLeg = traced.windows.map((window) => ({
      ...window,
      spans: collector.spans.filter((span) => span.startMs >= window.sentMs - 1 && span.startMs <= window.receivedMs),
    }));
    const staged = perLeg.map(legStages);
    const complete = staged.filter((stages): stages is Record<Stage, number> => !('missing' in stages));
    const incomplete = staged.length - complete.length;
    if (!complete.length) {
      const first = staged.find((stages) => 'missing' in stages) as { missing: string[] } | undefined;
      note(
        `no leg had all its spans (first one missing: ${first?.missing.join(', ')}); ${collector.spans.length} spans in all`,
      );
      return 1;
    }
    const summary = summarizeStages(complete);
    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
    const completeMs = perLeg.filter((_, i) => !('missing' in staged[i]!)).map((w) => w.receivedMs - w.sentMs);
    const against = (baseline: number[]) => {
      const ratios = untracedRuns.map((ms, i) => ms / baseline[i]!);
      return { median: p50(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
    };
    const totals = {
      untracedP50: p50(untracedRuns),
      bareLocalP50: p50(bareRuns),
      floorP50: p50(floorRuns),
      ratioToBareLocal: against(bareRuns),
      ratioToFloor: against(floorRuns),
      tracedP50: p50(traced.ms),
      tracedMean: mean(completeMs),
      sumOfStageMeans: summary.reduce((sum, stage) => sum + stage.mean, 0),
    };
    const fixed = (v: number) => v.toFixed(2);
    const ratioText = ({ median, min, max }: { median: number; min: number; max: number }) =>
      `${median.toFixed(2)}x${runs > 1 ? ` (${min.toFixed(2)}-${max.toFixed(2)})` : ''}`;
    process.stdout.write(
      [
        `answer leg (leg 2 of a two-round exchange), ${legs} legs one at a time per target, each answer sent ${thinkMs} ms after its question, ${target} target`,
        ...(runs > 1
          ? [
              `${runs} runs, the service and the baselines interleaved: each p50 the median of the runs' p50s, a ratio the median (min-max) of each run's`,
            ]
          : []),
        ...table(
          ['', 'leg 2 p50 ms'],
          [
            [`${target}, untraced`, fixed(totals.untracedP50)],
            ['bare-local (bare Temporal behind HTTP)', fixed(totals.bareLocalP50)],
            ['floor (bare Temporal, no HTTP leg)', fixed(totals.floorP50)],
            [`${target} / bare-local`, ratioText(totals.ratioToBareLocal)],
            [`${target} / floor`, ratioText(totals.ratioToFloor)],
            [`${target}, traced (the breakdown below)`, fixed(totals.tracedP50)],
          ],
        ),
        '',
        `stages of the traced leg (${complete.length} legs${incomplete ? `, ${incomplete} without all their spans left out` : ''}; means add up to the mean leg)`,
        ...table(
          ['stage', 'mean ms', 'p50 ms', 'p90 ms', 'what'],
          summary.map((s) => [s.stage, fixed(s.mean), fixed(s.p50), fixed(s.p90), s.what]),
        ),
        `sum of the stages' means: ${fixed(totals.sumOfStageMeans)} ms; the traced legs' mean: ${fixed(totals.tracedMean)} ms`,
        '',
      ].join('\n'),
    );
    process.stdout.write(
      `${JSON.stringify({ bench: 'answer-leg', target, date: new Date().toISOString(), legs, runs, thinkMs, untracedRuns, bareLocalRuns: bareRuns, floorRuns, ...totals, stages: summary.map(({ stage, mean, p50, p90 }) => ({ stage, mean, p50, p90 })) })}\n`,
    );
    return 0;
  } finally {
    await collector.close();
    await postgres
      ?.then((pg) => pg.stop())
      .catch((error: unknown) => note(`Postgres did not stop cleanly: ${(error as Error).message}`));
  }
}

interface Pace {
  legs: number;
  warmup: number;
  /** The pause between leg 1's reply and leg 2: a person reading the question. */
  thinkMs: number;
  signal: AbortSignal;
}

type TargetName = 'dev' | 'prod' | 'bare-local' | 'floor';
type TargetContext = Parameters<typeof startTarget>[1];

/** One two-round exchange, its answer sent `thinkMs` after its question: leg 2's time and window. */
async function answeredExchange(target: RunningTarget, { thinkMs, signal }: Pace) {
  const leg = (index: number, state: unknown) =>
    runLeg(target.call, TWO_ROUNDS, index, state, AbortSignal.any([signal, AbortSignal.timeout(LEG_TIMEOUT_MS)]));
  const first = await leg(0, undefined);
  if (thinkMs > 0) await sleep(thinkMs, undefined, { signal });
  const sentMs = epochMs();
  const second = await leg(1, first.result.requestState);
  return { ms: second.ms, window: { sentMs, receivedMs: epochMs() } };
}

async function startNamed(name: TargetName, ctx: TargetContext): Promise<RunningTarget> {
  note(`${ctx.dir.split(path.sep).at(-1)}: starting`);
  return startTarget(TARGET_SPECS[name], ctx);
}

async function stopQuietly(target: RunningTarget): Promise<void> {
  await target.stop().catch((error: unknown) => note(`target did not stop cleanly: ${(error as Error).message}`));
}

/** `legs` two-round exchanges one at a time on a target started for them: leg 2's times and windows. */
async function timedLegs(
  name: TargetName,
  ctx: TargetContext,
  pace: Pace,
): Promise<{ ms: number[]; windows: Array<Omit<TimedLeg, 'spans'>> }> {
  const target = await startNamed(name, ctx);
  try {
    const ms: number[] = [];
    const windows: Array<Omit<TimedLeg, 'spans'>> = [];
    for (let i = 0; i < pace.warmup + pace.legs; i++) {
      const { ms: legMs, window } = await answeredExchange(target, pace);
      if (i < pace.warmup) continue;
      ms.push(legMs);
      windows.push(window);
    }
    await sleep(EXPORT_SETTLE_MS);
    return { ms, windows };
  } finally {
    await stopQuietly(target);
  }
}

/**
 * `legs` two-round exchanges on each of `names`, all started at once and taking turns exchange by
 * exchange (the order turning too), so a slow second of this shared machine falls on every target
 * alike rather than on whichever ran in that minute: each target's leg 2 times, in `names`' order.
 */
async function interleavedLegs(
  names: TargetName[],
  ctxOf: (name: TargetName) => TargetContext,
  pace: Pace,
): Promise<number[][]> {
  const started: RunningTarget[] = [];
  try {
    for (const name of names) started.push(await startNamed(name, ctxOf(name)));
    const ms = names.map((): number[] => []);
    for (let i = 0; i < pace.warmup + pace.legs; i++)
      for (let k = 0; k < started.length; k++) {
        const turn = (i + k) % started.length;
        const { ms: legMs } = await answeredExchange(started[turn]!, pace);
        if (i >= pace.warmup) ms[turn]!.push(legMs);
      }
    return ms;
  } finally {
    for (const target of started.reverse()) await stopQuietly(target);
  }
}

const p50 = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

runBench('durable-mcp-answer-leg-', main);
