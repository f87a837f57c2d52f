/**
 * Keeps the machine busy: child processes that spin on a core each until stopped, for tests whose
 * claim is "also while the machine is busy". Children, not work in this process, so the code under
 * test competes for the cores as it would with a neighbour, and its own event loop is not the one
 * held up.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface BusyCpus {
  stop(): Promise<void>;
}

export function startBusyCpus(count: number): BusyCpus {
  const children: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return {
    async stop() {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}
