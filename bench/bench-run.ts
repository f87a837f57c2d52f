/**
 * What every bench script needs around its measurements: a scratch folder (kept, and named, when
 * something failed), Ctrl-C and SIGTERM turned into an abort so the script tears down in order (a
 * second signal a moment later forces the exit; child processes are killed either way), an
 * uncaught error turned into the same abort instead of a crash past the teardown, and the exit
 * code: 0, 1 when an exchange failed, 2 on a setup error, 130 when interrupted.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export interface BenchRun {
  /** A fresh folder for this run's databases and logs. */
  scratch: string;
  /** Aborted on a signal or an uncaught error. */
  signal: AbortSignal;
  /** Keep the scratch folder (its logs) after the run. */
  keepScratch(): void;
  /** Why `signal` aborted, if it has: a signal (exit 130) or an uncaught error (exit 2). */
  abortedBy(): 'interrupt' | 'fatal' | undefined;
}

export const note = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** Runs `body`, then exits with its code (130 when interrupted, 2 when something escaped it). */
export function runBench(prefix: string, body: (run: BenchRun) => Promise<number>): void {
  const stop = new AbortController();
  let interrupted: NodeJS.Signals | undefined;
  let interruptedAt = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    if (interrupted) {
      // A Ctrl-C can arrive twice within moments (terminal group + a relay); only a later one forces.
      if (performance.now() - interruptedAt < 1_000) return;
      note(`${sig} again: exiting without teardown (child processes are killed)`);
      process.exit(130);
    }
    interrupted = sig;
    interruptedAt = performance.now();
    note(`${sig}: stopping and tearing down (again to force)`);
    stop.abort(new Error(sig));
  };
  let fatal: unknown;
  const onUncaught = (error: unknown) => {
    if (interrupted) return note(`after ${interrupted}: ${(error as Error)?.message ?? String(error)}`);
    fatal ??= error;
    note(`uncaught: ${(error as Error)?.stack ?? String(error)}`);
    stop.abort(error);
  };
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, onSignal);

  const scratch = mkdtempSync(path.join(os.tmpdir(), prefix));
  chmodSync(scratch, 0o755); // an embedded Postgres runs as its own user when we are root
  let keep = false;
  const finish = (code: number) => {
    if (interrupted) code = 130;
    else if (fatal !== undefined) code ||= 2;
    if ((keep || code === 1 || code === 2) && readdirSync(scratch).length > 0) note(`logs kept in ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
    process.exit(code);
  };
  const abortedBy = () => (interrupted ? 'interrupt' : fatal !== undefined ? 'fatal' : undefined);
  body({ scratch, signal: stop.signal, keepScratch: () => (keep = true), abortedBy }).then(finish, (error: unknown) => {
    note(`error: ${(error as Error)?.stack ?? String(error)}`);
    finish(2);
  });
}
