/**
 * The API as its own OS process (`services/api/src/main.ts` under tsx), for tests where "another
 * replica" or "a restart" must mean a real process: nothing shared in memory, killable with SIGKILL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';

export interface ApiProcess {
  url: string;
  /** Everything the process wrote to stdout and stderr so far (its log lines). */
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** `logFile`: where the process's stdout and stderr also go, for tests that show them on failure. */
export function startApiProcess(
  env: Record<string, string>,
  timeoutMs = 30_000,
  logFile?: string,
): Promise<ApiProcess> {
  const root = projectRoot();
  // One process (node with tsx's loader), not the tsx CLI, which would run the API in a child of its own.
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'services/api/src/main.ts')],
    {
      cwd: root,
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  let started = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    const timer = setTimeout(
      () => fail(new Error(`API process did not start in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    // exited only resolves, and fail does not throw, so this never rejects.
    void exited.then(() => {
      if (!started) fail(new Error(`API process exited early:\n${output}`));
    });
    const keep = (chunk: Buffer) => {
      if (logFile) appendFileSync(logFile, chunk);
      output += chunk;
    };
    child.stderr!.on('data', keep);
    child.stdout!.on('data', (chunk: Buffer) => {
      keep(chunk);
      const match = /"url":"(http:\/\/[^"]+\/mcp)"[^\n]*"msg":"API listening"/.exec(output);
      if (started || !match) return;
      started = true;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        output: () => output,
        async kill(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          // A process that will not stop on its own is stopped.
          const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(force);
        },
      });
    });
  });
}
