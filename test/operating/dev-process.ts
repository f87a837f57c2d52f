/**
 * `durable-mcp dev` run as a user runs it, from the project, in a process group of its own (so a
 * test's SIGINT reaches it as a terminal's Ctrl-C does), on its own stack: none of the test run's
 * Postgres or Temporal, and what it prints kept for the test to read.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { projectRoot } from '../../lib/paths';

export interface DevRun {
  process: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Spawns `durable-mcp dev <args>` with `env`, less what would point it at the test run's own stack. */
export function spawnDev(args: string[], env: NodeJS.ProcessEnv): DevRun {
  const own: NodeJS.ProcessEnv = { ...env };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'TEMPORAL_UI_URL', 'HANDLERS', 'HOST'] as const)
    delete own[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'dev', ...args], {
    cwd: projectRoot(),
    env: own,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { process: child, output: () => output, exited };
}
