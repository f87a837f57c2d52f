/**
 * A child OS process whose stdout and stderr go to a log file, started in its own process group so
 * a signal reaches it even when the command is a wrapper (a pyenv shim around `temporal`, say).
 * Fault scenarios SIGKILL and SIGTERM these; nothing about them is shared with the test process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';

export interface OsProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  /** Resolves once the process has exited, with how. */
  readonly exited: Promise<string>;
  running(): boolean;
  /** Sends `signal` to the whole group without waiting (SIGSTOP freezes it, SIGCONT lets it go on). */
  signal(signal: NodeJS.Signals): void;
  /** Sends `signal` to the whole group and waits for the exit (SIGKILL after `graceMs`). */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<string>;
}

// Process groups still running. They are detached from jest's, so if the test process exits
// without stopping them (a crash, a CI timeout's SIGTERM to jest), they are killed on the way out
// instead of holding ports and CPU for the next run.
const live = new Set<number>();
process.once('exit', () => {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

export function spawnLogged(
  name: string,
  command: string,
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    logFile: string;
    /** Signal only the process itself, which stops its own children in order (Postgres's wrapper does). */
    signalLeaderOnly?: boolean;
  },
): OsProcess {
  const out = openSync(options.logFile, 'a');
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', out, out],
    detached: true, // its own process group: the group gets our signals, and jest's Ctrl-C does not race us
  });
  closeSync(out);
  live.add(child.pid!);
  let exit: string | undefined;
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child.pid!);
      exit = `${name} exited (code ${code}, signal ${signal})`;
      resolve(exit);
    }),
  );
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(options.signalLeaderOnly && signal !== 'SIGKILL' ? child.pid! : -child.pid!, signal);
    } catch {
      // already gone
    }
  };
  return {
    name,
    pid: child.pid!,
    logFile: options.logFile,
    exited,
    running: () => exit === undefined,
    signal: signalGroup,
    async stop(signal = 'SIGTERM', graceMs = 20_000) {
      if (exit !== undefined) return exit;
      signalGroup(signal);
      const force = setTimeout(() => signalGroup('SIGKILL'), graceMs);
      const how = await exited;
      clearTimeout(force);
      return how;
    },
  };
}

/** Polls a process's log file until `pattern` appears, failing fast if the process exits first. */
export async function waitForLog(proc: OsProcess, pattern: RegExp, timeoutMs: number, fromOffset = 0): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (pattern.test(readLog(proc.logFile).slice(fromOffset))) return;
    if (!proc.running()) throw new Error(`${await proc.exited} before logging ${pattern}:\n${tailOf(proc.logFile)}`);
    if (Date.now() > deadline)
      throw new Error(`${proc.name} did not log ${pattern} in ${timeoutMs} ms:\n${tailOf(proc.logFile)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** The last `lines` lines, each cut to `width` characters (an error line can carry a whole pg client). */
export function tailOf(file: string, lines = 40, width = 600): string {
  return readLog(file)
    .split('\n')
    .slice(-lines - 1)
    .map((line) => (line.length > width ? `${line.slice(0, width)} …` : line))
    .join('\n');
}
