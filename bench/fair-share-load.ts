/**
 * The two callers of the fair-share bench: a flood (one principal starting single-round exchanges
 * open-loop, at a fixed rate whatever the service answers, as a runaway agent does) and a quiet
 * caller (another principal running two-round exchanges one after another, answering each
 * question after a person's pause). The flood's outcomes are counted by kind; the quiet caller's
 * legs are timed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { runExchange, type Caller } from './load';
import { SCENARIO_SPECS } from './scenarios';

export interface FloodCount {
  offered: number;
  completed: number;
  /** Refused by a quota (`data.quota`): nothing started. */
  quotaRefused: number;
  /** Refused by a capacity budget (legs in flight, running exchanges): nothing started. */
  capacityRefused: number;
  failed: number;
  /** Not sent: this many were already in flight (the client's own bound). */
  dropped: number;
  /** Seconds from the first call offered to the last settled. */
  seconds: number;
}

/** The flood's own bound on exchanges in flight: past it a call is counted as dropped, not sent. */
const MAX_FLOOD_IN_FLIGHT = 2_000;

export interface Flood {
  stop(): Promise<FloodCount>;
}

/** Starts `callsPerSecond` single-round exchanges a second until `stop`, whatever comes back. */
export function startFlood(call: Caller, callsPerSecond: number, exchangeTimeoutMs: number): Flood {
  const count: FloodCount = {
    offered: 0,
    completed: 0,
    quotaRefused: 0,
    capacityRefused: 0,
    failed: 0,
    dropped: 0,
    seconds: 0,
  };
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const started = Date.now();
  const one = async () => {
    try {
      await runExchange(call, SCENARIO_SPECS.single, AbortSignal.timeout(exchangeTimeoutMs));
      count.completed += 1;
    } catch (error) {
      count[refusalKind((error as Error).message)] += 1;
    }
  };
  const pace = (async () => {
    const intervalMs = 1000 / callsPerSecond;
    for (let next = Date.now(); !stopping.signal.aborted; next += intervalMs) {
      const wait = next - Date.now();
      if (wait > 0) await sleep(wait, undefined, { signal: stopping.signal }).catch(() => undefined);
      if (stopping.signal.aborted) break;
      count.offered += 1;
      if (inFlight.size >= MAX_FLOOD_IN_FLIGHT) {
        count.dropped += 1;
        continue;
      }
      const exchange = one().finally(() => inFlight.delete(exchange));
      inFlight.add(exchange);
    }
  })();
  return {
    async stop() {
      stopping.abort();
      await pace;
      await Promise.all(inFlight);
      count.seconds = (Date.now() - started) / 1000;
      return count;
    },
  };
}

/** Which count a failed exchange goes to, by the error the caller threw (bench/http-caller.ts). */
export function refusalKind(message: string): 'quotaRefused' | 'capacityRefused' | 'failed' {
  if (/quota/i.test(message)) return 'quotaRefused';
  if (/HTTP (429|503)/.test(message)) return 'capacityRefused';
  return 'failed';
}

export interface QuietRun {
  /** Each leg's milliseconds: the first legs (a question comes back) and the answer legs (the result). */
  firstLegMs: number[];
  answerLegMs: number[];
  failures: string[];
}

/** `exchanges` two-round exchanges one after another, each answer sent `thinkMs` after its question. */
export async function runQuiet(
  call: Caller,
  exchanges: number,
  thinkMs: number,
  exchangeTimeoutMs: number,
): Promise<QuietRun> {
  const run: QuietRun = { firstLegMs: [], answerLegMs: [], failures: [] };
  for (let i = 0; i < exchanges; i++) {
    try {
      const timing = await runExchange(call, SCENARIO_SPECS.two, AbortSignal.timeout(exchangeTimeoutMs), thinkMs);
      run.firstLegMs.push(timing.legMs[0]!);
      run.answerLegMs.push(timing.legMs[1]!);
    } catch (error) {
      run.failures.push(`#${i}: ${(error as Error).message}`);
    }
  }
  return run;
}
