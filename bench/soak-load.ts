/**
 * The soak's load: `concurrency` lanes, each starting an exchange of a kind drawn from the mix (by
 * the seed) as soon as its last one ended, or, with a rate, at the next free start time of one
 * shared schedule, until the load's end; the exchanges in flight then run on to their ends (the
 * drain). A driver that throws has given up: the ledger says why, under the exchange's ref.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { why, type SoakContext, type SoakTrack } from './soak-context';
import { runLegacy } from './soak-legacy';
import { runModern } from './soak-modern';
import type { SoakKind, SoakOptions } from './soak-options';
import { runQuestion } from './soak-question';
import { pickWeighted, streamOf } from './soak-random';
import { runTask } from './soak-task';

type Driver = (ctx: SoakContext, n: number, track: SoakTrack) => Promise<void>;
const DRIVERS: Record<SoakKind, Driver> = {
  modern: runModern,
  legacy: runLegacy,
  task: runTask,
  question: runQuestion,
};

export interface Load {
  /** Resolves once every lane has stopped starting exchanges and its last one has ended. */
  drained: Promise<void>;
  /** Exchanges whose drivers are running now. */
  inFlight(): number;
  /** Every exchange's client handle, in the order they started. */
  tracks: SoakTrack[];
}

/** Starts the load; no exchange starts at or after `stopAt` (epoch ms). */
export function startLoad(ctx: SoakContext, opts: SoakOptions, stopAt: number): Load {
  const random = streamOf(opts.seed, 'kinds');
  const intervalMs = opts.rate > 0 ? 60_000 / opts.rate : 0;
  let nextStart = Date.now();
  let running = 0;
  const tracks: SoakTrack[] = [];

  /** When this lane may start its next exchange, or undefined once the load is over. */
  async function slot(): Promise<boolean> {
    const at = Math.max(Date.now(), nextStart);
    if (at >= stopAt) return false;
    nextStart = at + intervalMs;
    if (at > Date.now()) await sleep(at - Date.now());
    return true;
  }

  async function lane(): Promise<void> {
    while (await slot()) {
      const kind = pickWeighted(random, opts.mix);
      const n = ctx.ledger.start(kind);
      const track: SoakTrack = {};
      tracks.push(track);
      running += 1;
      try {
        await DRIVERS[kind](ctx, n, track);
      } catch (error) {
        ctx.ledger.end(kind, 'gave up', why(error), track.ref);
      } finally {
        running -= 1;
        track.done = true;
      }
    }
  }

  return {
    drained: Promise.all(Array.from({ length: opts.concurrency }, lane)).then(() => undefined),
    inFlight: () => running,
    tracks,
  };
}
