/**
 * `npm run bench:fair-share`: does one caller's flood slow everyone else? One principal (`flood`)
 * starts single-round exchanges open-loop at `--flood-factor` (10) times the rate this machine
 * sustains (measured first, in the same run); another (`quiet`) runs two-round exchanges at a
 * person's pace (`--think-ms` before each answer). The quiet caller's leg p50 and p99 are compared
 * with its figures on an idle service, with neither, either and both of the quotas
 * (QUOTA_CALLS_PER_MINUTE_PER_PRINCIPAL at half the sustained rate) and the engine's fairness (a
 * Temporal server with fairness on or off), each on a fresh service and Temporal dev server.
 * Both callers are real OAuth clients of a real authorization server (test/support), so each is a
 * principal of its own. Tables to stdout, one JSON summary line last; progress to stderr.
 */
import path from 'node:path';
import { startBenchAuthorization, type BenchAuthorization } from './fair-share-auth';
import { parseFlags, integerOption } from './flags';
import { httpCaller } from './http-caller';
import { runMany } from './load';
import { note, runBench } from './bench-run';
import { startFlood, runQuiet, type FloodCount, type QuietRun } from './fair-share-load';
import { fairnessFlags, FAIR_SHARE_CASES, type FairShareCase } from './fair-share-cases';
import { renderFairShare, type CaseResult } from './fair-share-report';
import { SCENARIO_SPECS } from './scenarios';
import { startSharedPostgres, startTarget, TARGET_SPECS } from './targets';
import type { SharedPostgres } from './target-types';
import { freePort } from '../cli/dev/local-stack/free-port';

const USAGE = `npm run bench:fair-share -- [options]
  --flood-factor N     the flood's rate as a multiple of the sustained rate (default 10)
  --quiet-exchanges N  the quiet caller's two-round exchanges per case (default 20)
  --think-ms N         the quiet caller's pause before each answer (default 1000)
  --sustain-s N        seconds of the closed-loop run that measures the sustained rate (default 10)
  --quick              5 quiet exchanges, a 5 s sustain run: a smoke run
  --help`;

runBench('durable-mcp-fair-share-', async ({ scratch, signal }) => {
  const argv = process.argv.slice(2);
  if (argv.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const flags = parseFlags(argv, ['quick'], ['flood-factor', 'quiet-exchanges', 'think-ms', 'sustain-s']);
  const int = integerOption(flags, {});
  const quick = flags.has('quick');
  const options = {
    floodFactor: int('flood-factor', '', 10, 1),
    quietExchanges: int('quiet-exchanges', '', quick ? 5 : 20, 1),
    thinkMs: int('think-ms', '', 1000, 0),
    sustainS: int('sustain-s', '', quick ? 5 : 10, 1),
  };
  let postgres: Promise<SharedPostgres> | undefined;
  // Every service's port first: each token names its endpoint, and the issuer knows them from its start.
  const ports = await distinctFreePorts(1 + FAIR_SHARE_CASES.length);
  const auth = await startBenchAuthorization(ports);
  try {
    const ctxFor = async (name: string, fairness: boolean, env: Record<string, string>, port: number) => ({
      dir: path.join(scratch, name),
      temporalFlags: fairnessFlags(fairness),
      logLevel: 'warn',
      postgres: () => (postgres ??= startSharedPostgres(path.join(scratch, 'postgres'))),
      signal,
      port,
      serviceEnv: { ...auth.serviceEnv(port), ...env },
    });

    // The rate this machine sustains: the flood's principal, closed-loop at concurrency 16.
    const sustainPort = ports[0]!;
    const sustainTarget = await startTarget(TARGET_SPECS.dev, await ctxFor('sustain', true, {}, sustainPort));
    let sustainedPerS: number;
    try {
      const bearer = await auth.bearer('flood', sustainTarget.url!);
      const call = httpCaller(sustainTarget.url!, bearer.headers);
      const stop = AbortSignal.any([signal, AbortSignal.timeout(options.sustainS * 1000)]);
      const run = await runMany(call, SCENARIO_SPECS.single, Number.MAX_SAFE_INTEGER, 16, 60_000, stop);
      bearer.stop();
      sustainedPerS = run.timings.length / (run.wallMs / 1000);
      note(`sustained: ${sustainedPerS.toFixed(1)} single-round exchanges/s`);
    } finally {
      await sustainTarget.stop();
    }

    const results: CaseResult[] = [];
    for (const [index, c] of FAIR_SHARE_CASES.entries()) {
      if (signal.aborted) break;
      note(`case ${c.name}`);
      results.push(await runCase(c, ports[index + 1]!, options, sustainedPerS, auth, ctxFor));
    }
    process.stdout.write(renderFairShare(results, { ...options, sustainedPerS }));
    return results.some((r) => r.quiet.failures.length > 0) ? 1 : 0;
  } finally {
    await auth.stop();
    await (await postgres)?.stop();
  }
});

async function runCase(
  c: FairShareCase,
  port: number,
  options: { floodFactor: number; quietExchanges: number; thinkMs: number },
  sustainedPerS: number,
  auth: BenchAuthorization,
  ctxFor: (
    name: string,
    fairness: boolean,
    env: Record<string, string>,
    port: number,
  ) => Promise<Parameters<typeof startTarget>[1]>,
): Promise<CaseResult> {
  // The quota leaves the flood half of what the machine sustains, per minute.
  const quotaPerMinute = Math.max(1, Math.floor(sustainedPerS * 30));
  const env: Record<string, string> = c.quotas ? { QUOTA_CALLS_PER_MINUTE_PER_PRINCIPAL: String(quotaPerMinute) } : {};
  const target = await startTarget(TARGET_SPECS.dev, await ctxFor(c.name, c.fairness, env, port));
  try {
    const url = target.url!;
    const bearers = { quiet: await auth.bearer('quiet', url), flood: await auth.bearer('flood', url) };
    let flood: FloodCount | undefined;
    let quiet: QuietRun;
    try {
      const quietCall = httpCaller(url, bearers.quiet.headers);
      if (c.flood) {
        const running = startFlood(httpCaller(url, bearers.flood.headers), sustainedPerS * options.floodFactor, 30_000);
        // The backlog builds before the quiet caller's first call.
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        quiet = await runQuiet(quietCall, options.quietExchanges, options.thinkMs, 600_000);
        flood = await running.stop();
      } else {
        quiet = await runQuiet(quietCall, options.quietExchanges, options.thinkMs, 600_000);
      }
    } finally {
      bearers.quiet.stop();
      bearers.flood.stop();
    }
    const exited = target.exited();
    if (exited) quiet.failures.push(`the service exited: ${exited}`);
    return { case: c, quiet, ...(flood ? { flood } : {}), ...(c.quotas ? { quotaPerMinute } : {}) };
  } finally {
    await target.stop();
  }
}

async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}
