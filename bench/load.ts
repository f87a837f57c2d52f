/**
 * The load generator: exchanges over the 2026-07-28 wire with the bare caller the tests use
 * (devtools/raw-mcp-call.ts), the same for every target, so the client's cost is the same.
 */
import { performance } from 'node:perf_hooks';
import { rawCall } from '../devtools/raw-mcp-call';
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

async function call(url: string, params: Record<string, unknown>, signal: AbortSignal) {
  const { status, body } = await rawCall(url, 'tools/call', params, { elicitation: {} }, signal);
  if (body.error) throw new Error(`HTTP ${status}: JSON-RPC error ${body.error.code} ${body.error.message}`);
  if (status !== 200 || !body.result) throw new Error(`HTTP ${status}: no result`);
  return body.result;
}

const isStateOnly = (r: Record<string, unknown>) =>
  r.resultType === 'input_required' && typeof r.requestState === 'string' && r.inputRequests === undefined;

export async function runExchange(url: string, scenario: Scenario, signal: AbortSignal): Promise<ExchangeTiming> {
  const tool = { name: scenario.tool, arguments: {} };
  const legMs: number[] = [];
  let requests = 0;
  let resends = 0;
  let requestState: unknown;
  const start = performance.now();
  for (const [index, leg] of scenario.legs.entries()) {
    const t0 = performance.now();
    const params = index === 0 ? tool : { ...tool, inputResponses: leg.answers, requestState };
    let result = await call(url, params, signal);
    requests++;
    // "Still working, come back" (the service's HTTP wait ran out): re-send the echoed state.
    while (isStateOnly(result)) {
      result = await call(url, { ...tool, requestState: result.requestState }, signal);
      requests++;
      resends++;
    }
    legMs.push(performance.now() - t0);
    const wrong = mismatch(result, leg.expect);
    if (wrong) throw new Error(`leg ${index + 1}: ${wrong}`);
    requestState = result.requestState;
  }
  return { legMs, totalMs: performance.now() - start, requests, stateOnlyResends: resends };
}

/** Runs `n` exchanges with at most `concurrency` in flight; stops dispatching after the first failure. */
export async function runMany(
  url: string,
  scenario: Scenario,
  n: number,
  concurrency: number,
  exchangeTimeoutMs: number,
  stop: AbortSignal,
): Promise<RunResult> {
  const timings: ExchangeTiming[] = [];
  const failures: string[] = [];
  let dispatched = 0;
  const lane = async () => {
    while (dispatched < n && failures.length === 0 && !stop.aborted) {
      const index = dispatched++;
      try {
        timings.push(await runExchange(url, scenario, AbortSignal.any([stop, AbortSignal.timeout(exchangeTimeoutMs)])));
      } catch (error) {
        failures.push(`exchange #${index}: ${(error as Error).message}`);
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, lane));
  if (stop.aborted && failures.length === 0 && timings.length < n) failures.push(`stopped: ${String(stop.reason)}`);
  return { timings, failures, wallMs: performance.now() - start };
}
