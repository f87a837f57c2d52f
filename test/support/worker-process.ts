/**
 * The worker as its own OS process (`services/worker/src/main.ts` under tsx): the production
 * main, with its metrics listener and the Temporal SDK runtime it installs itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from '../../lib/paths';

export interface WorkerProcess {
  /** The worker's metrics URL, as it logged it. */
  metricsUrl: string;
  output(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Resolves once the worker logged both its metrics URL and "worker started" (it polls from then on). */
export function startWorkerProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<WorkerProcess> {
  const root = projectRoot();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'services/worker/src/main.ts')],
    { cwd: root, env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
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
    const timer = setTimeout(() => fail(new Error(`worker did not start in ${timeoutMs} ms:\n${output}`)), timeoutMs);
    // exited only resolves, and fail does not throw, so this never rejects.
    void exited.then(() => {
      if (!started) fail(new Error(`worker exited early:\n${output}`));
    });
    const keep = (chunk: Buffer) => {
      output += chunk;
      const metrics = /"url":"(http:\/\/[^"]+\/metrics)"[^\n]*"msg":"worker metrics listening"/.exec(output);
      if (started || !metrics || !output.includes('"msg":"worker started"')) return;
      started = true;
      clearTimeout(timer);
      resolve({
        metricsUrl: metrics[1]!,
        output: () => output,
        async kill(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
          await exited;
          clearTimeout(force);
        },
      });
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
  });
}
