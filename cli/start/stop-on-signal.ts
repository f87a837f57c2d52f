/**
 * Signal-driven stop for a process: the first SIGINT or SIGTERM runs `stop` and exits 0 (1 when
 * it failed); a second signal forces exit 1. When what the process runs ends by itself (`ended`
settles), it is stopped the same way: exit 0, or 1 when it failed.
 */
import type { Logger } from '../../lib/log';

export interface StopOnSignalOptions {
  log: Logger;
  /** Names the process in the log lines: "<label> stopping", "<label> did not stop cleanly". */
  label: string;
  stop(): Promise<void>;
  /** Settles when what the process runs ends (the worker's run); a rejection is a failure. */
  ended?: Promise<unknown>;
}

export function stopOnSignal({ log, label, stop, ended }: StopOnSignalOptions): void {
  let stopping = false;
  const stopAndExit = (code: number) => {
    stopping = true;
    stop().then(
      () => process.exit(code),
      (error: unknown) => {
        log.error({ err: error }, `${label} did not stop cleanly`);
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1); // a second signal forces the exit
    log.info({ signal }, `${label} stopping`);
    stopAndExit(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  ended?.then(
    () => {
      if (!stopping) stopAndExit(0);
    },
    (error: unknown) => {
      if (stopping) return;
      log.error({ err: error }, `${label} failed`);
      stopAndExit(1);
    },
  );
}
