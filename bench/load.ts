/**
 * The load generator: exchanges over the 2026-07-28 wire with the bare caller the tests use
 * (scripts/raw-mcp-call.ts) sent through node:http (bench/http-caller.ts), the same for every
 * target, so the client's cost is the same. The `floor` target has no HTTP leg: its caller starts
 * and signals the workflow itself and answers with the same results
 * (bench/baselines/floor-client.ts), checked the same way.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { mismatch, type Scenario } from './scenarios';

export interface ExchangeTiming {
  /** Milliseconds of each leg, state-only re-sends included in the leg they belong to. */
  legMs: number[];
  totalMs: number;
  /** HTTP requests made (legs + state-only re-sends). */
  requests: number;
  stateOnlyResends: number;
}

export interface RunResult {
  timings: ExchangeTiming[];
  failures: string[];
  wallMs: number;
}

/** One `tools/call` of a target: its params in, its result out (a JSON-RPC error is thrown). */
export type Caller = (params: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>;

/** "Come back": a requestState and nothing to answer (`inputRequests: {}`). */
const isStateOnly = (r: Record<string, unknown>) =>
  r.resultType === 'input_required' &&
  typeof r.requestState === 'string' &&
  Object.keys((r.inputRequests as object | undefined) ?? {}).length === 0;

export interface LegTiming {
  result: Record<string, unknown>;
  ms: number;
  requests: number;
}

/**
 * Leg `index` of `scenario` (0 is the first leg; later ones carry that leg's answers and the
 * previous leg's requestState), state-only re-sends included, checked against what it must return.
 */
export async function runLeg(
  call: Caller,
  scenario: Scenario,
  index: number,
  requestState: unknown,
  signal: AbortSignal,
): Promise<LegTiming> {
  const tool = { name: scenario.tool, arguments: {} };
  const leg = scenario.legs[index]!;
  const t0 = performance.now();
  const params = index === 0 ? tool : { ...tool, inputResponses: leg.answers, requestState };
  let result = await call(params, signal);
  let requests = 1;
  // "Still working, come back" (the service's HTTP wait ran out): re-send the echoed state.
  while (isStateOnly(result)) {
    result = await call({ ...tool, requestState: result.requestState }, signal);
    requests++;
  }
  const ms = performance.now() - t0;
  const wrong = mismatch(result, leg.expect);
  if (wrong) throw new Error(`leg ${index + 1}: ${wrong}`);
  return { result, ms, requests };
}

/** `thinkMs`: the pause before each answer leg (a person reading the question); not counted in any leg. */
export async function runExchange(
  call: Caller,
  scenario: Scenario,
  signal: AbortSignal,
  thinkMs = 0,
): Promise<ExchangeTiming> {
  const legMs: number[] = [];
  let requests = 0;
  let requestState: unknown;
  const start = performance.now();
  for (const index of scenario.legs.keys()) {
    if (index > 0 && thinkMs > 0) await sleep(thinkMs, undefined, { signal });
    const leg = await runLeg(call, scenario, index, requestState, signal);
    legMs.push(leg.ms);
    requests += leg.requests;
    requestState = leg.result.requestState;
  }
  return { legMs, totalMs: performance.now() - start, requests, stateOnlyResends: requests - legMs.length };
}

/**
 * Runs `work(0..n-1)` with at most `concurrency` in flight; a failure is collected and stops
 * further dispatch, as does `stop`.
 */
export async function inLanes(
  n: number,
  concurrency: number,
  stop: AbortSignal,
  work: (index: number) => Promise<void>,
): Promise<{ failures: string[]; wallMs: number }> {
  const failures: string[] = [];
  let dispatched = 0;
  const lane = async () => {
    while (dispatched < n && failures.length === 0 && !stop.aborted) {
      const index = dispatched++;
      try {
        await work(index);
      } catch (error) {
        failures.push(`#${index}: ${(error as Error).message}`);
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, lane));
  if (stop.aborted && failures.length === 0 && dispatched < n) failures.push(`stopped: ${String(stop.reason)}`);
  return { failures, wallMs: performance.now() - start };
}

/** Runs `n` exchanges with at most `concurrency` in flight; stops dispatching after the first failure. */
export async function runMany(
  call: Caller,
  scenario: Scenario,
  n: number,
  concurrency: number,
  exchangeTimeoutMs: number,
  stop: AbortSignal,
  thinkMs = 0,
): Promise<RunResult> {
  const timings: ExchangeTiming[] = [];
  const { failures, wallMs } = await inLanes(n, concurrency, stop, async () => {
    timings.push(
      await runExchange(call, scenario, AbortSignal.any([stop, AbortSignal.timeout(exchangeTimeoutMs)]), thinkMs),
    );
  });
  return { timings, failures: failures.map((f) => `exchange ${f}`), wallMs };
}
