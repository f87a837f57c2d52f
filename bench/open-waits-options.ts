/**
 * Options of `npm run bench:open-waits`, from flags or `BENCH_*` variables; flags win. Pure.
 */
import path from 'node:path';
import { integerOption, list, parseFlags } from './flags';

export const OPEN_WAITS_TARGETS = ['dev', 'prod'] as const;

export interface OpenWaitsOptions {
  /** Exchanges left waiting on a person at the end of the opening phase. */
  open: number;
  /** Open counts, below `open`, at which the service is measured on the way (plus 0 and `open`). */
  checkpoints: number[];
  /** First legs timed one at a time at each checkpoint (they stay open too). */
  sample: number;
  concurrency: number;
  warmup: number;
  target: (typeof OPEN_WAITS_TARGETS)[number];
  temporalFlags: string[];
  build: boolean;
  logLevel: string;
  /** Read each process's heap after a full GC at every checkpoint (bench/open-waits-heap.ts). */
  heap: boolean;
  /** Also write a heap snapshot per process and thread there (implies `heap`). */
  heapSnapshotDir?: string;
  help: boolean;
}

export const OPEN_WAITS_USAGE = `npm run bench:open-waits -- [options]

Opens --open exchanges that wait on a person (the first leg of a two-round call, never answered
until the end), measuring memory, disk and first-leg latency at 0, each checkpoint and --open
open; then answers them all and reports the answer throughput and the cost per open exchange.

  --open N                exchanges left open (default 10000; BENCH_OPEN)
  --checkpoints LIST      open counts measured on the way (default half of --open)
  --sample N              first legs timed at concurrency 1 per checkpoint (default 50)
  --concurrency N         legs in flight while opening and answering (default 16)
  --warmup N              whole exchanges run and thrown away first (default 20)
  --target dev|prod       the service as npm run dev or as production runs it (default prod)
  --temporal-flags "..."  extra start-dev flags (default none; BENCH_TEMPORAL_FLAGS)
  --no-build              use dist/ as it is instead of running npm run build first
  --quick                 smoke run: --open 400 --sample 10 --warmup 4 unless given
  --log-level LEVEL       LOG_LEVEL of the service's processes (default warn)
  --heap                  also read each service process's heap after a full GC at each checkpoint
  --heap-snapshots DIR    --heap, and write a heap snapshot per process and thread at each checkpoint`;

export function readOpenWaitsOptions(
  argv: readonly string[],
  env: Record<string, string | undefined>,
): OpenWaitsOptions {
  const args = parseFlags(
    argv,
    ['no-build', 'quick', 'heap', 'help'],
    [
      'open',
      'checkpoints',
      'sample',
      'concurrency',
      'warmup',
      'target',
      'temporal-flags',
      'log-level',
      'heap-snapshots',
    ],
  );
  const quick = args.has('quick');
  const int = integerOption(args, env);
  const open = int('open', 'BENCH_OPEN', quick ? 400 : 10_000, 1);
  const checkpoints = (args.get('checkpoints') ?? String(Math.floor(open / 2)))
    .split(',')
    .filter(Boolean)
    .map((raw) => {
      const n = Number(raw.trim());
      if (!Number.isInteger(n) || n <= 0 || n >= open)
        throw new Error(`--checkpoints: "${raw}" must be an integer between 1 and ${open - 1}`);
      return n;
    })
    .sort((a, b) => a - b);
  const flags = args.get('temporal-flags') ?? env.BENCH_TEMPORAL_FLAGS ?? '';
  return {
    open,
    checkpoints: [...new Set(checkpoints)],
    sample: int('sample', 'BENCH_SAMPLE', quick ? 10 : 50, 1),
    concurrency: int('concurrency', 'BENCH_CONCURRENCY', 16, 1),
    warmup: int('warmup', 'BENCH_WARMUP', quick ? 4 : 20, 0),
    target: list(args.get('target') ?? 'prod', OPEN_WAITS_TARGETS, 'target')[0]!,
    temporalFlags: flags.split(/\s+/).filter(Boolean),
    build: !args.has('no-build'),
    logLevel: args.get('log-level') ?? env.BENCH_LOG_LEVEL ?? 'warn',
    heap: args.has('heap') || args.has('heap-snapshots'),
    ...(args.get('heap-snapshots') ? { heapSnapshotDir: path.resolve(args.get('heap-snapshots')!) } : {}),
    help: args.has('help'),
  };
}
