/**
 * Runs an asynchronous task (an upstream's listing) on signals, bounded: a burst of signals runs it
 * once, `quietMs` after the last of them, and at the latest `maxWaitMs` after the first (a source
 * that never stops signalling still gets its runs, no more often than that); two runs never
 * overlap, and a signal that comes during a run runs it once more after it (the run under way may
 * have read what the signal says has changed). One timer and one run at most, whatever the signals.
 */
export interface CoalescedRun {
  signal(): void;
  /** No run starts any more (one under way finishes). */
  stop(): void;
}

export interface CoalescedRunOptions {
  quietMs: number;
  maxWaitMs: number;
}

export function coalescedRun(run: () => Promise<void>, options: CoalescedRunOptions): CoalescedRun {
  const { quietMs, maxWaitMs } = options;
  let timer: NodeJS.Timeout | undefined;
  let firstSignalAt: number | undefined;
  let running = false;
  let signalledWhileRunning = false;
  let stopped = false;

  const schedule = () => {
    const now = Date.now();
    firstSignalAt ??= now;
    clearTimeout(timer);
    timer = setTimeout(start, Math.max(0, Math.min(quietMs, firstSignalAt + maxWaitMs - now)));
    timer.unref();
  };

  function start(): void {
    timer = undefined;
    firstSignalAt = undefined;
    if (stopped) return;
    running = true;
    void run()
      .catch(() => undefined) // the task reports its own failures
      .finally(() => {
        running = false;
        if (signalledWhileRunning && !stopped) {
          signalledWhileRunning = false;
          schedule();
        }
      });
  }

  return {
    signal() {
      if (stopped) return;
      if (running) signalledWhileRunning = true;
      else schedule();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
