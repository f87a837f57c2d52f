/**
 * Options of `npm run bench:soak`, from flags or `BENCH_*` variables; flags win. Pure.
 */
import { integerOption, parseFlags } from './flags';

export const SOAK_KINDS = ['modern', 'legacy', 'task', 'question'] as const;
export type SoakKind = (typeof SOAK_KINDS)[number];

export interface SoakOptions {
  minutes: number;
  /** Exchanges in flight at once: one lane each, each starting its next when its last ends. */
  concurrency: number;
  /** Exchanges started per minute across all lanes (0: as fast as the lanes go). */
  rate: number;
  /** The relative weight of each kind of exchange in the mix. */
  mix: Record<SoakKind, number>;
  /** Mean seconds between two SIGKILLs of the worker, and apart between two of an API replica (0: no chaos). */
  killEverySeconds: number;
  /** Seconds a killed process stays down before it is started again. */
  downSeconds: number;
  seed: number;
  /** Seconds between two memory readings of every process. */
  sampleSeconds: number;
  /** Seconds the exchanges in flight when the load stops get to end before the readings. */
  drainSeconds: number;
  /** How long a client follows one leg (connection errors, state-only results) before it gives up. */
  patienceSeconds: number;
  /** Milliseconds a client takes to answer each ask. */
  thinkMs: number;
  keepLogs: boolean;
  help: boolean;
}

export const SOAK_USAGE = `npm run bench:soak -- [options]

Runs a mixed load (2026-07-28 exchanges, 2025-11-25 sessions answering real elicitation
requests, tasks answered with tasks/update, questions addressed to an approver who answers through
the answer API) against the service as separate OS processes (one worker, two API replicas, a
Temporal dev server, an embedded Postgres), SIGKILLing the worker and one API replica at random
times and starting them again. At the end: exchanges by outcome, answers accepted against answers
applied (exit 1 when they differ), leaks, and each process's memory over time.

  --minutes N           how long the load runs (default 30; BENCH_MINUTES)
  --concurrency N       exchanges in flight at once (default 8; BENCH_CONCURRENCY)
  --rate N              exchanges started per minute, at most --concurrency in flight
                        (default 0: each lane starts its next exchange as soon as its last ends)
  --mix LIST            weights of each kind (default modern=3,legacy=2,task=2,question=2)
  --think-ms N          pause before each answer, a person reading the ask, so exchanges stay
                        open across kills (default 1000)
  --kill-every-s N      mean seconds between SIGKILLs of the worker, and apart of an API replica,
                        each drawn uniformly from 0.5 to 1.5 times it (default 60; 0: no kills)
  --down-s N            seconds a killed process stays down before its restart (default 2)
  --seed N              seed of every random choice (kind, kill times, which API; default 1)
  --sample-s N          seconds between memory readings (default 5)
  --drain-s N           seconds the exchanges in flight at the end get to finish (default 180)
  --patience-s N        seconds a client follows one leg before it gives up (default 150)
  --keep-logs           keep every process's log (they are kept anyway when answers mismatch)`;

const DEFAULT_MIX = 'modern=3,legacy=2,task=2,question=2';

/** `kind=weight,...`: every kind named at most once, weights whole numbers, at least one above 0. */
export function parseMix(raw: string): Record<SoakKind, number> {
  const mix: Record<SoakKind, number> = { modern: 0, legacy: 0, task: 0, question: 0 };
  const seen = new Set<string>();
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const m = /^([a-z]+)=(\d+)$/.exec(part);
    if (!m || !(SOAK_KINDS as readonly string[]).includes(m[1]!))
      throw new Error(`--mix: "${part}" is not kind=weight (kinds: ${SOAK_KINDS.join(', ')})`);
    if (seen.has(m[1]!)) throw new Error(`--mix names ${m[1]} twice`);
    seen.add(m[1]!);
    mix[m[1] as SoakKind] = Number(m[2]);
  }
  if (SOAK_KINDS.every((kind) => mix[kind] === 0)) throw new Error('--mix: at least one weight must be above 0');
  return mix;
}

export function readSoakOptions(argv: readonly string[], env: Record<string, string | undefined>): SoakOptions {
  const args = parseFlags(
    argv,
    ['keep-logs', 'help'],
    [
      'minutes',
      'concurrency',
      'rate',
      'mix',
      'kill-every-s',
      'down-s',
      'seed',
      'sample-s',
      'drain-s',
      'patience-s',
      'think-ms',
    ],
  );
  const int = integerOption(args, env);
  return {
    minutes: int('minutes', 'BENCH_MINUTES', 30, 1),
    concurrency: int('concurrency', 'BENCH_CONCURRENCY', 8, 1),
    rate: int('rate', 'BENCH_RATE', 0, 0),
    mix: parseMix(args.get('mix') ?? env.BENCH_MIX ?? DEFAULT_MIX),
    killEverySeconds: int('kill-every-s', 'BENCH_KILL_EVERY_S', 60, 0),
    downSeconds: int('down-s', 'BENCH_DOWN_S', 2, 0),
    seed: int('seed', 'BENCH_SEED', 1, 0),
    sampleSeconds: int('sample-s', 'BENCH_SAMPLE_S', 5, 1),
    drainSeconds: int('drain-s', 'BENCH_DRAIN_S', 180, 0),
    patienceSeconds: int('patience-s', 'BENCH_PATIENCE_S', 150, 1),
    thinkMs: int('think-ms', 'BENCH_THINK_MS', 1000, 0),
    keepLogs: args.has('keep-logs'),
    help: args.has('help'),
  };
}
