/**
 * Memory of process trees from /proc (Linux): resident set (RSS) and proportional set (PSS: each
 * shared page divided among the processes sharing it) from /proc/<pid>/smaps_rollup, summed over a
 * root and its live descendants. PSS is the honest sum for Postgres, whose backends share its
 * buffers; RSS is what a container limit sees for a single-process service.
 */
import { readFileSync } from 'node:fs';
import { readProcessTable, treePids } from './proc-cpu';

export interface TreeMemory {
  rssBytes: number;
  pssBytes: number;
  processes: number;
}

/** Parses smaps_rollup's `Rss:` and `Pss:` lines (kB); undefined when they are missing. */
export function parseSmapsRollup(text: string): { rssBytes: number; pssBytes: number } | undefined {
  const kb = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(text);
    return m ? Number(m[1]) * 1024 : undefined;
  };
  const rssBytes = kb('Rss');
  const pssBytes = kb('Pss');
  return rssBytes === undefined || pssBytes === undefined ? undefined : { rssBytes, pssBytes };
}

export function treeMemory(roots: readonly number[]): TreeMemory {
  const memory: TreeMemory = { rssBytes: 0, pssBytes: 0, processes: 0 };
  for (const pid of treePids(roots, readProcessTable())) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    } catch {
      continue; // gone since the table was read
    }
    const one = parseSmapsRollup(text);
    if (!one) continue;
    memory.rssBytes += one.rssBytes;
    memory.pssBytes += one.pssBytes;
    memory.processes += 1;
  }
  return memory;
}
