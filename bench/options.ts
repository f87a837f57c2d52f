/**
 * The bench's options, from flags (`--n 100`, `--n=100`) or `BENCH_*` variables; flags win.
 * Pure, so bench/self-check.ts can pin it.
 */
import { integerOption, list, parseFlags } from './flags';

export const TARGETS = [
  'dev',
  'prod',
  'gateway',
  'gateway-local',
  'sdk',
  'bare-regular',
  'bare-local',
  'bare-split',
  'floor',
  'compose',
  'bare-compose',
] as const;
export type TargetName = (typeof TARGETS)[number];
export const SCENARIOS = ['single', 'two', 'three'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface Options {
  /** Exchanges measured at concurrency 1 (leg latency), per target and scenario. */
  n: number;
  /** Exchanges measured at `concurrency` (throughput and CPU), per target and scenario. */
  nConcurrent: number;
  concurrency: number;
  /** Whole runs of every target, interleaved (each target fresh in each run); figures are their medians. */
  runs: number;
  /** Exchanges run (at `concurrency`) and thrown away before a scenario's measured phases. */
  warmup: number;
  /** At concurrency 1, the pause before each answer leg: a person reading the question (0: at once). */
  thinkMs: number;
  targets: TargetName[];
  scenarios: ScenarioName[];
  /** Extra `temporal server start-dev` flags, the same for every Temporal-backed target. */
  temporalFlags: string[];
  /** Run `npm run build` before the production target (off: use dist/ as it is). */
  build: boolean;
  exchangeTimeoutMs: number;
  logLevel: string;
  quick: boolean;
  help: boolean;
  /**
   * Run the API and worker processes (and each baseline's) under `node --cpu-prof`, each writing
   * into `<profile>/<target>-<role>`; the measured phases' windows go to `<profile>/phases.json`.
   */
  profile?: string;
}

export const USAGE = `npm run bench -- [options]

Runs every target one after another, each on a fresh Temporal dev server where it uses one, and
each scenario on every target: warm-up, then --n exchanges at concurrency 1 (leg latency), then
--n-concurrent at --concurrency (exchanges/s and CPU per exchange).

  --targets LIST          ${TARGETS.join(',')} (default: all)
  --scenarios LIST        ${SCENARIOS.join(',')} (default: all; 1, 2 and 3 legs)
  --n N                   exchanges at concurrency 1 (default 100; BENCH_N)
  --n-concurrent N        exchanges at --concurrency (default 200; BENCH_N_CONCURRENT)
  --concurrency N         (default 16; BENCH_CONCURRENCY)
  --warmup N              exchanges thrown away first, per scenario (default 20; BENCH_WARMUP)
  --think-ms N            at concurrency 1, send each answer N ms after its question, as a person
                          does (it then reaches an idle workflow instead of racing the tail of the
                          task that asked); not counted in any leg (default 0; BENCH_THINK_MS)
  --runs N                whole runs, the targets interleaved (each started fresh every run);
                          every figure is the median of the runs, every ratio the median
                          (and range) of the ratios taken within each run (default 1; BENCH_RUNS)
  --temporal-flags "..."  extra start-dev flags for every Temporal target, after the SQLite
                          pragmas npm run dev sets, e.g. "--sqlite-pragma synchronous=full"
                          (default none; BENCH_TEMPORAL_FLAGS)
  --no-build              use dist/ as it is instead of running npm run build first
  --quick                 smoke run: --n 8 --n-concurrent 32 --warmup 4 unless given
  --exchange-timeout-ms N one exchange's bound (default 60000)
  --log-level LEVEL       LOG_LEVEL of the service's processes (default warn)
  --profile DIR           run the API and worker processes (and each baseline's) under
                          node --cpu-prof, writing into DIR/<target>-<role>; read them with
                          npm run bench:profile-summary -- DIR

stdout: the tables and a one-line JSON summary; stderr: progress. Exit 0, 1 when an exchange
failed, 2 on a setup error, 130 when interrupted.`;

const BOOLEAN_FLAGS = ['no-build', 'quick', 'help'];
const VALUE_FLAGS = [
  'n',
  'n-concurrent',
  'concurrency',
  'warmup',
  'think-ms',
  'runs',
  'targets',
  'scenarios',
  'temporal-flags',
  'exchange-timeout-ms',
  'log-level',
  'profile',
];

export function readOptions(argv: readonly string[], env: Record<string, string | undefined>): Options {
  const args = parseFlags(argv, BOOLEAN_FLAGS, VALUE_FLAGS);
  const quick = args.has('quick');
  const int = integerOption(args, env);
  const flags = args.get('temporal-flags') ?? env.BENCH_TEMPORAL_FLAGS ?? '';
  return {
    n: int('n', 'BENCH_N', quick ? 8 : 100, 1),
    nConcurrent: int('n-concurrent', 'BENCH_N_CONCURRENT', quick ? 32 : 200, 1),
    concurrency: int('concurrency', 'BENCH_CONCURRENCY', 16, 1),
    warmup: int('warmup', 'BENCH_WARMUP', quick ? 4 : 20, 0),
    thinkMs: int('think-ms', 'BENCH_THINK_MS', 0, 0),
    runs: int('runs', 'BENCH_RUNS', 1, 1),
    targets: list(args.get('targets') ?? env.BENCH_TARGETS ?? TARGETS.join(','), TARGETS, 'target'),
    scenarios: list(args.get('scenarios') ?? env.BENCH_SCENARIOS ?? SCENARIOS.join(','), SCENARIOS, 'scenario'),
    temporalFlags: flags.split(/\s+/).filter(Boolean),
    build: !args.has('no-build'),
    exchangeTimeoutMs: int('exchange-timeout-ms', 'BENCH_EXCHANGE_TIMEOUT_MS', 60_000, 1),
    logLevel: args.get('log-level') ?? env.BENCH_LOG_LEVEL ?? 'warn',
    quick,
    help: args.has('help'),
    ...(args.get('profile') ? { profile: args.get('profile') } : {}),
  };
}
