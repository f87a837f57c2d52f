/**
 * Child processes of the dev tooling (`npm run prod:local`), the bench and the tests: each in its
 * own process group (a Ctrl-C reaches the parent, which stops them in order), its output in a log
 * file and, for the tests, kept in memory as well; waited on until it prints that it is ready;
 * stopped with a signal (SIGTERM unless told) and then, after a grace time, SIGKILL to its whole
 * group. Whatever is still alive when the parent exits, however it exits, is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readFileSync } from 'node:fs';

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Child {
  name: string;
  pid: number;
  logFile?: string;
  /** Why it exited, once it has. */
  exited(): string | undefined;
  /** Resolves once it has exited, with how. */
  readonly exit: Promise<ChildExit>;
  /** What it has written to stdout and stderr so far (kept in memory, or read back from its log file). */
  output(): string;
  /** The first match of `pattern` in its output; rejects when it exits first or after `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
  /** Sends `signal` (SIGTERM), then SIGKILL to the whole group if it has not exited after `graceMs`. */
  stop(graceMs?: number, signal?: NodeJS.Signals): Promise<void>;
}

export interface ChildOptions {
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Where its stdout and stderr go; required unless `keepOutput`. */
  logFile?: string;
  /** Keep its output in memory too (read through pipes instead of handing it the log file). */
  keepOutput?: boolean;
}

const live = new Set<ChildProcess>();
const groups = new Set<number>();
process.on('exit', () => {
  for (const pid of [...[...live].map((child) => child.pid!), ...groups]) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** Kills the process group led by `pid` if it is still there when the bench exits (one started elsewhere in a group of its own). */
export function killOnExit(pid: number): void {
  groups.add(pid);
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // nothing left
  }
}

/** Whether any process of the group led by `pid` is still there (a zombie not yet reaped counts). */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits, up to `timeoutMs`, until the group led by `pid` is gone: a killed process is not gone
 * when its signal is sent, and one started again on its resources at once (a Postgres on its data
 * folder, whose old backends still hold its shared memory) would refuse them.
 */
async function groupGone(pid: number, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (groupAlive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

export function spawnChild(name: string, command: string, args: readonly string[], options: ChildOptions): Child {
  const { logFile, keepOutput = false } = options;
  if (!keepOutput && !logFile) throw new Error(`${name}: a child's output goes to a log file or is kept`);
  const out = keepOutput ? 'pipe' : openSync(logFile!, 'a');
  let child: ChildProcess;
  try {
    child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', out, out], detached: true });
  } finally {
    if (typeof out === 'number') closeSync(out);
  }
  if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
  live.add(child);
  let kept = '';
  if (keepOutput) {
    const keep = (chunk: Buffer) => {
      if (logFile) appendFileSync(logFile, chunk);
      kept += chunk;
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
  }
  const output = () => (keepOutput ? kept : readLog(logFile!));
  let why: string | undefined;
  const exit = new Promise<ChildExit>((resolve) => {
    child.once('exit', (code, signal) => {
      why = `exited with code ${code} signal ${signal}${logFile ? `; see ${logFile}` : ''}`;
      live.delete(child);
      resolve({ code, signal });
    });
    child.once('error', (error) => {
      why = `failed: ${error.message}`;
      live.delete(child);
      resolve({ code: null, signal: null });
    });
  });
  return {
    name,
    pid: child.pid,
    ...(logFile ? { logFile } : {}),
    exited: () => why,
    exit,
    output,
    async waitForOutput(pattern, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(output());
        if (match) return match;
        if (why !== undefined) throw new Error(`${name} ${why} before printing ${pattern}:\n${output()}`);
        if (Date.now() > deadline) throw new Error(`${name} did not print ${pattern} in ${timeoutMs} ms:\n${output()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop(graceMs = 15_000, signal = 'SIGTERM') {
      if (why !== undefined) return;
      child.kill(signal);
      const force = setTimeout(() => killGroup(child.pid!), graceMs);
      await exit;
      clearTimeout(force);
      // A wrapper (tsx) may leave its own child behind when it is killed; the group goes with it.
      killGroup(child.pid!);
      await groupGone(child.pid!);
    },
  };
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Runs a command to completion with its output on this process's stderr; rejects unless it exits 0. */
export function runToCompletion(command: string, args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 2, 2] });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')}: code ${code} signal ${signal}`)),
    );
  });
}
