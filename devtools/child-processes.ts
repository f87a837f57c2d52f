/**
 * Child processes of the dev tooling (`npm run stack:prod`) and the bench: each in its own process
 * group (a Ctrl-C reaches the parent, which stops them in order), its output in a log file, stopped
 * with SIGTERM and then, after a grace time, SIGKILL to its whole group. Whatever is still alive
 * when the parent exits, however it exits, is killed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

export interface Child {
  name: string;
  pid: number;
  logFile: string;
  /** Why it exited, once it has. */
  exited(): string | undefined;
  stop(graceMs?: number): Promise<void>;
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

export function spawnChild(
  name: string,
  command: string,
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; logFile: string },
): Child {
  const out = openSync(options.logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', out, out], detached: true });
  } finally {
    closeSync(out);
  }
  if (child.pid === undefined) throw new Error(`${name}: could not start ${command}`);
  live.add(child);
  let why: string | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      why = `exited with code ${code} signal ${signal}; see ${options.logFile}`;
      live.delete(child);
      resolve();
    });
    child.once('error', (error) => {
      why = `failed: ${error.message}`;
      live.delete(child);
      resolve();
    });
  });
  return {
    name,
    pid: child.pid,
    logFile: options.logFile,
    exited: () => why,
    async stop(graceMs = 15_000) {
      if (why !== undefined) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, graceMs);
      await exit;
      clearTimeout(force);
      // A wrapper (tsx) may leave its own child behind when it is killed; the group goes with it.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // nothing left
      }
    },
  };
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
