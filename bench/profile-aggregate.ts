/**
 * Self time of one V8 `.cpuprofile` (one thread), summed by where the code comes from and by
 * function, counting only the samples inside the given windows. Pure, so bench/self-check.ts pins
 * it; bench/profile-summary.ts reads the files and prints.
 *
 * A sample lasts until the next one (as Chrome's DevTools count it). A native frame (no script:
 * a socket write, a crypto call, a V8 builtin) is charged to the source of the nearest JavaScript
 * frame above it, so "pg" includes the writes pg makes; the function table names it on its own.
 */

export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A time window on the profile's clock (monotonic µs). */
export interface Window {
  startUs: number;
  endUs: number;
}

export interface ThreadProfile {
  /** Sampled time inside the windows, idle included (µs). */
  sampledUs: number;
  /** Of which the thread was busy: everything but `(idle)` (µs). */
  busyUs: number;
  /** Busy µs by source: a package, a folder of this project, `node built-ins`, `garbage collector`, … */
  bySource: Map<string, number>;
  /**
   * Busy µs by the source that made the call: node built-ins and native frames charged to the
   * nearest frame above them from a package or this project (who made node write, encrypt, post).
   */
  byCaller: Map<string, number>;
  /** Busy µs by function: `name (source file:line)`. */
  byFunction: Map<string, number>;
}

const IDLE = '(idle)';
const OUTSIDE = 'V8 and native, outside JavaScript';
const BUILT_INS = 'node built-ins';
/** Frames V8 reports with no script that are not native functions called from JavaScript. */
const ENGINE_FRAMES: Record<string, string> = {
  '(garbage collector)': 'garbage collector',
  '(program)': OUTSIDE,
  '(root)': OUTSIDE,
};

/**
 * Where a script comes from: the package under the last `node_modules/` (`@scope/name` or `name`),
 * `node built-ins`, the workflow bundle (Temporal's worker runs workflows from one webpack bundle,
 * so the bundle's own code, the SDK's workflow half and this project's workflow code included, is
 * one source), or the project folder the file sits in (its first two path segments under `root`).
 */
export function sourceOf(url: string, root: string): string {
  if (url.startsWith('node:')) return BUILT_INS;
  const file = url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const parts = file.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  if (/(^|\/)workflow-bundle-[^/]*\.js$/.test(file)) return 'workflow bundle';
  if (root && file.startsWith(`${root}/`)) {
    const parts = file.slice(root.length + 1).split('/');
    return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return file || 'unknown';
}

const inWindows = (t: number, windows: readonly Window[] | undefined) =>
  windows === undefined || windows.some((w) => t >= w.startUs && t < w.endUs);

/** Aggregates one thread's profile; `windows` undefined counts every sample. */
export function aggregateProfile(profile: CpuProfile, root: string, windows?: readonly Window[]): ThreadProfile {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Per node: its source (a native frame takes its nearest scripted ancestor's) and function label.
  type Frame = { source: string; caller: string; fn: string; idle: boolean };
  const memo = new Map<number, Frame>();
  const describe = (id: number): Frame => {
    const known = memo.get(id);
    if (known) return known;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const up = parent.get(id);
    const above = up === undefined ? undefined : describe(up);
    let out: Frame;
    if (functionName === IDLE) out = { source: IDLE, caller: IDLE, fn: IDLE, idle: true };
    else if (Object.hasOwn(ENGINE_FRAMES, functionName)) {
      const source = ENGINE_FRAMES[functionName]!;
      out = { source, caller: source, fn: functionName, idle: false };
    } else if (url === '') {
      const source = above?.source ?? OUTSIDE;
      out = { source, caller: above?.caller ?? source, fn: `${functionName || '(anonymous)'} (native)`, idle: false };
    } else {
      const file = url.replace(/^file:\/\//, '');
      const short = root && file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
      const source = sourceOf(url, root);
      const caller = source === BUILT_INS && above && above.caller !== OUTSIDE ? above.caller : source;
      out = { source, caller, fn: `${functionName || '(anonymous)'} (${short}:${lineNumber + 1})`, idle: false };
    }
    memo.set(id, out);
    return out;
  };

  const result: ThreadProfile = {
    sampledUs: 0,
    busyUs: 0,
    bySource: new Map(),
    byCaller: new Map(),
    byFunction: new Map(),
  };
  let t = profile.startTime;
  const { samples, timeDeltas } = profile;
  for (let i = 0; i < samples.length; i++) {
    t += timeDeltas[i]!;
    const duration = i + 1 < samples.length ? timeDeltas[i + 1]! : 0;
    if (duration <= 0 || !inWindows(t, windows)) continue;
    const d = describe(samples[i]!);
    result.sampledUs += duration;
    if (d.idle) continue;
    result.busyUs += duration;
    result.bySource.set(d.source, (result.bySource.get(d.source) ?? 0) + duration);
    result.byCaller.set(d.caller, (result.byCaller.get(d.caller) ?? 0) + duration);
    result.byFunction.set(d.fn, (result.byFunction.get(d.fn) ?? 0) + duration);
  }
  return result;
}

/** The `n` largest entries of a map, largest first. */
export function top(map: ReadonlyMap<string, number>, n: number): Array<[string, number]> {
  return [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
}
