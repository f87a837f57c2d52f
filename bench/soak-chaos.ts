/**
 * The soak's chaos: two loops of their own, one SIGKILLing the worker, one SIGKILLing one of the two
 * API replicas (drawn by the seed, never both down at once), each after a wait drawn around
 * `--kill-every-s` (soak-random.ts `jittered`); the killed process stays down `--down-s`, then
 * starts again (the worker on the stack's shared workflow bundle; an API on a new port, which
 * clients find in the stack's list of APIs that are up). Stopping lets a restart under way finish,
 * so the stack is whole for the drain.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultStack } from '../test/faults/support/fault-stack';
import { note } from './bench-run';
import { why } from './soak-context';
import type { SoakOptions } from './soak-options';
import { jittered, streamOf, type Random } from './soak-random';

export type ChaosTarget = 'worker' | 'api0' | 'api1';

export interface ChaosEvent {
  /** Seconds since the load started. */
  atS: number;
  target: ChaosTarget;
  pid?: number;
  /** Milliseconds from the restart's spawn to the process serving again. */
  restartMs?: number;
  /** Why restarts failed (each is tried again, RESTART_ATTEMPTS times in all; no restartMs: it never came back). */
  errors: string[];
}

export interface Chaos {
  events: ChaosEvent[];
  stop(): Promise<void>;
}

const RESTART_ATTEMPTS = 5;

export function startChaos(stack: FaultStack, opts: SoakOptions, loadStart: number): Chaos {
  const events: ChaosEvent[] = [];
  const stopping = new AbortController();
  if (opts.killEverySeconds === 0) return { events, stop: async () => undefined };

  async function killAndRestart(
    target: ChaosTarget,
    kill: () => Promise<number | undefined>,
    start: () => Promise<void>,
  ) {
    const event: ChaosEvent = { atS: (Date.now() - loadStart) / 1000, target, errors: [] };
    events.push(event);
    event.pid = await kill();
    note(`chaos: SIGKILLed ${target} (pid ${event.pid}) at ${event.atS.toFixed(0)} s`);
    await sleep(opts.downSeconds * 1000);
    for (let attempt = 1; ; attempt++) {
      const began = Date.now();
      try {
        await start();
        event.restartMs = Date.now() - began;
        return;
      } catch (error) {
        event.errors.push(why(error));
        note(`chaos: ${target} did not start (attempt ${attempt}): ${why(error)}`);
        if (attempt >= RESTART_ATTEMPTS) return; // the report names it: a process that never came back
      }
    }
  }

  async function loop(name: string, once: (random: Random) => Promise<void>) {
    const random = streamOf(opts.seed, name);
    for (;;) {
      const waited = await sleep(jittered(random, opts.killEverySeconds * 1000), 'waited', {
        signal: stopping.signal,
      }).catch(() => 'stopped');
      if (waited === 'stopped') return;
      await once(random);
    }
  }

  const worker = loop('worker kills', async () => {
    const pid = stack.worker()?.pid;
    await killAndRestart(
      'worker',
      async () => (await stack.stopWorker('SIGKILL'), pid),
      async () => void (await stack.startWorker()),
    );
  });
  const api = loop('api kills', async (random) => {
    if (!stack.apiRunning(0) || !stack.apiRunning(1)) return;
    const slot = random.next() < 0.5 ? 0 : 1;
    const pid = stack.apiPid(slot);
    await killAndRestart(
      slot === 0 ? 'api0' : 'api1',
      async () => (await stack.stopApi(slot, 'SIGKILL'), pid),
      () => stack.startApi(slot),
    );
  });
  return {
    events,
    async stop() {
      stopping.abort();
      await Promise.all([worker, api]);
    },
  };
}
