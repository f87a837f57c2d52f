/**
 * CPU time of process trees from /proc (Linux): a process's utime + stime + cutime + cstime (its
 * own time and its reaped children's), plus the same for each live descendant, so a tsx wrapper's
 * node child or a Postgres server's backends count with their root. Sampled before and after a
 * measured phase; the difference is what the phase cost.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime + cutime + cstime, in clock ticks. */
  ticks: number;
}

/** Parses one /proc/<pid>/stat line; the command name may hold spaces and parentheses. */
export function parseProcStat(line: string): ProcStat | undefined {
  const open = line.indexOf('(');
  const close = line.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const pid = Number(line.slice(0, open).trim());
  // Fields after the name, from field 3 (state): ppid is field 4, utime..cstime are 14..17.
  const rest = line
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const field = (n: number) => Number(rest[n - 3]);
  const ticks = field(14) + field(15) + field(16) + field(17);
  if (!Number.isFinite(pid) || !Number.isFinite(ticks)) return undefined;
  return { pid, ppid: field(4), ticks };
}

/** Every process visible in /proc, by pid. */
export function readProcessTable(): Map<number, ProcStat> {
  const table = new Map<number, ProcStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = parseProcStat(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (stat) table.set(stat.pid, stat);
    } catch {
      // gone between the listing and the read
    }
  }
  return table;
}

/** The pids of the trees rooted at `roots`, each once (roots that are gone are left out). */
export function treePids(roots: readonly number[], table: ReadonlyMap<number, ProcStat>): number[] {
  const children = new Map<number, number[]>();
  for (const stat of table.values()) {
    const siblings = children.get(stat.ppid);
    if (siblings) siblings.push(stat.pid);
    else children.set(stat.ppid, [stat.pid]);
  }
  const seen = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    const pid = stack.pop()!;
    if (seen.has(pid) || !table.has(pid)) continue;
    seen.add(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return [...seen];
}

/** Ticks of the trees rooted at `roots` (each process counted once). */
export function treeTicks(roots: readonly number[], table: ReadonlyMap<number, ProcStat>): number {
  return treePids(roots, table).reduce((ticks, pid) => ticks + table.get(pid)!.ticks, 0);
}

let hz: number | undefined;
/** Clock ticks per second (`getconf CLK_TCK`, 100 on Linux when that cannot run). */
export function clockTicksPerSecond(): number {
  if (hz === undefined) {
    try {
      hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      hz = 100;
    }
  }
  return hz;
}

/** CPU seconds used so far by each named group of process trees, and by this process itself. */
export function sampleCpu(groups: Readonly<Record<string, readonly number[]>>): Record<string, number> {
  const table = readProcessTable();
  const perSecond = clockTicksPerSecond();
  const sample: Record<string, number> = {};
  for (const [name, roots] of Object.entries(groups)) sample[name] = treeTicks(roots, table) / perSecond;
  const self = process.cpuUsage();
  sample.client = (self.user + self.system) / 1e6;
  return sample;
}
