/**
 * Each process's memory over the soak, from /proc (bench/proc-memory.ts): every `--sample-s` the
 * resident set (RSS) of each service process tree, Postgres's as its proportional set (PSS: its
 * backends share its buffers), its node wrapper left out. A killed process's successor is a new
 * generation (a new pid), summarized apart. `summarizeMemory` is pure.
 */
import { readProcessTable } from './proc-cpu';
import { treeMemory } from './proc-memory';
import { percentile } from './stats';

export interface MemorySource {
  process: string;
  /** The tree's root, or its roots; none while the process is down. */
  pids: () => number[];
  /** Read PSS instead of RSS (for Postgres). */
  pss?: boolean;
  /** Read the bytes this way instead of from the tree (the soak's own process, whose tree is everything). */
  read?: () => number;
}

export interface MemorySample {
  process: string;
  /** The sample's root pid, which names the generation. */
  pid: number;
  /** Seconds since the sampling began. */
  atS: number;
  bytes: number;
}

export interface MemoryRow {
  process: string;
  /** 1 for the first process, 2 for its successor after a kill, and so on. */
  generation: number;
  pid: number;
  samples: number;
  fromS: number;
  toS: number;
  startBytes: number;
  medianBytes: number;
  maxBytes: number;
  endBytes: number;
}

/** The children of `pid` now (Postgres's server under its node wrapper). */
export function childrenOf(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  return [...readProcessTable().values()].filter((stat) => stat.ppid === pid).map((stat) => stat.pid);
}

export function startMemorySampler(sources: MemorySource[], everyMs: number) {
  const samples: MemorySample[] = [];
  const began = Date.now();
  const sample = () => {
    const atS = (Date.now() - began) / 1000;
    for (const source of sources) {
      const pids = source.pids();
      if (pids.length === 0) continue;
      if (source.read) {
        samples.push({ process: source.process, pid: pids[0]!, atS, bytes: source.read() });
        continue;
      }
      const tree = treeMemory(pids);
      if (tree.processes === 0) continue;
      samples.push({ process: source.process, pid: pids[0]!, atS, bytes: source.pss ? tree.pssBytes : tree.rssBytes });
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    samples,
    /** Takes a last reading and stops. */
    stop() {
      clearInterval(timer);
      sample();
    },
  };
}

/** One row per process and generation, in the order processes first appear; generations by first sample. */
export function summarizeMemory(samples: readonly MemorySample[]): MemoryRow[] {
  const rows: MemoryRow[] = [];
  const byKey = new Map<string, MemorySample[]>();
  for (const sample of samples) {
    const key = `${sample.process}\t${sample.pid}`;
    const list = byKey.get(key);
    if (list) list.push(sample);
    else byKey.set(key, [sample]);
  }
  const generations = new Map<string, number>();
  for (const list of byKey.values()) {
    const { process, pid } = list[0]!;
    const generation = (generations.get(process) ?? 0) + 1;
    generations.set(process, generation);
    const sorted = list.map((s) => s.bytes).sort((a, b) => a - b);
    rows.push({
      process,
      generation,
      pid,
      samples: list.length,
      fromS: list[0]!.atS,
      toS: list[list.length - 1]!.atS,
      startBytes: list[0]!.bytes,
      medianBytes: percentile(sorted, 50),
      maxBytes: sorted[sorted.length - 1]!,
      endBytes: list[list.length - 1]!.bytes,
    });
  }
  const order = [...new Set(samples.map((s) => s.process))];
  return rows.sort((a, b) => order.indexOf(a.process) - order.indexOf(b.process) || a.generation - b.generation);
}
