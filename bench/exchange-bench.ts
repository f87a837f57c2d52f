/**
 * End-to-end benchmark: N two-round `greet` exchanges (2026-07-28 wire) through the full stack —
 * HTTP → API → Temporal → worker → Postgres → LISTEN/NOTIFY → HTTP — and the latency of each leg.
 *
 *   npm run bench -- --n 200 --concurrency 8 --warmup 10
 *   BENCH_N=200 BENCH_CONCURRENCY=8 BENCH_WARMUP=10 npm run bench
 *
 * Temporal: TEMPORAL_ADDRESS, or a dev server started here (the `temporal` CLI).
 * Postgres: DATABASE_URL, or an embedded one started here. Its exchange rows stay in that database.
 * The API and the worker run in this process (services/stack/start-service.ts, as in the tests), on
 * their own task queue. Logs go to stderr; the table and a one-line JSON summary go to stdout. Exits 1 if any
 * exchange failed, 2 on a setup error, 130 when interrupted; everything started here is stopped in
 * every case.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import pino from 'pino';
import { rawCall } from '../devtools/raw-mcp-call';
import { startLocalStack } from '../devtools/local-stack/local-stack';
import { loadHandlerSet } from '../handlers';
import { parseConfig } from '../lib/config';
import { startService } from '../services/stack/start-service';
import { round, summarize, type LatencySummary } from './stats';

// ---------------------------------------------------------------------------------------------
// Options

interface Options {
  n: number;
  concurrency: number;
  warmup: number;
  /** Upper bound on one exchange, state-only re-sends included. */
  exchangeTimeoutMs: number;
  logLevel: string;
}

function readOptions(argv: string[], env: NodeJS.ProcessEnv): Options {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]!);
    if (!m) throw new Error(`unexpected argument ${argv[i]}`);
    args.set(m[1]!, m[2] ?? argv[++i] ?? '');
  }
  const int = (flag: string, variable: string, fallback: number, min: number) => {
    const raw = args.get(flag) ?? env[variable];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min)
      throw new Error(`--${flag} / ${variable} must be an integer >= ${min}, got "${raw}"`);
    return Number(raw);
  };
  const opts: Options = {
    n: int('n', 'BENCH_N', 200, 1),
    concurrency: int('concurrency', 'BENCH_CONCURRENCY', 8, 1),
    warmup: int('warmup', 'BENCH_WARMUP', 10, 0),
    exchangeTimeoutMs: int('exchange-timeout-ms', 'BENCH_EXCHANGE_TIMEOUT_MS', 60_000, 1),
    logLevel: args.get('log-level') ?? env.BENCH_LOG_LEVEL ?? 'warn',
  };
  const known = new Set(['n', 'concurrency', 'warmup', 'exchange-timeout-ms', 'log-level']);
  for (const flag of args.keys()) if (!known.has(flag)) throw new Error(`unknown option --${flag}`);
  return opts;
}

// ---------------------------------------------------------------------------------------------
// One exchange over the 2026-07-28 wire, with the same bare caller the tests use

async function callTool(
  url: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const { status, body } = await rawCall(url, 'tools/call', params, { elicitation: {} }, signal);
  if (body.error) throw new Error(`HTTP ${status}: JSON-RPC error ${body.error.code} ${body.error.message}`);
  if (status !== 200 || !body.result) throw new Error(`HTTP ${status}: no result`);
  return body.result;
}

interface ExchangeTiming {
  leg1Ms: number;
  leg2Ms: number;
  totalMs: number;
  /** HTTP requests made, state-only re-sends included (2 when nothing had to wait). */
  requests: number;
  stateOnlyResends: number;
}

const TOOL = { name: 'greet', arguments: {} };
const isStateOnly = (r: Record<string, unknown>) =>
  r.resultType === 'input_required' && typeof r.requestState === 'string' && r.inputRequests === undefined;

/**
 * Sends one leg and, while the API answers "still working" (state-only input_required), re-sends
 * just the echoed requestState. Returns the first result that is not state-only.
 */
async function leg(
  url: string,
  params: Record<string, unknown>,
  signal: AbortSignal,
  count: { requests: number; resends: number },
) {
  let result = await callTool(url, params, signal);
  count.requests++;
  while (isStateOnly(result)) {
    result = await callTool(url, { ...TOOL, requestState: result.requestState }, signal);
    count.requests++;
    count.resends++;
  }
  return result;
}

async function runExchange(url: string, signal: AbortSignal): Promise<ExchangeTiming> {
  const count = { requests: 0, resends: 0 };
  const t0 = performance.now();
  const ask = await leg(url, TOOL, signal, count);
  const t1 = performance.now();
  const inputRequests = ask.inputRequests as Record<string, unknown> | undefined;
  if (ask.resultType !== 'input_required' || !inputRequests?.name || typeof ask.requestState !== 'string') {
    throw new Error(`leg 1: expected an ask for "name", got ${JSON.stringify(ask).slice(0, 200)}`);
  }
  const t2 = performance.now();
  const final = await leg(
    url,
    {
      ...TOOL,
      inputResponses: { name: { action: 'accept', content: { name: 'Bench' } } },
      requestState: ask.requestState,
    },
    signal,
    count,
  );
  const t3 = performance.now();
  const content = final.content as Array<{ type: string; text?: string }> | undefined;
  if (final.resultType === 'input_required' || content?.[0]?.text !== 'Hello, Bench!') {
    throw new Error(`leg 2: expected "Hello, Bench!", got ${JSON.stringify(final).slice(0, 200)}`);
  }
  return {
    leg1Ms: t1 - t0,
    leg2Ms: t3 - t2,
    totalMs: t3 - t0,
    requests: count.requests,
    stateOnlyResends: count.resends,
  };
}

interface RunResult {
  timings: ExchangeTiming[];
  failures: string[];
  wallMs: number;
}

/** Runs `n` exchanges with at most `concurrency` in flight; stops dispatching after the first failure. */
async function runMany(
  url: string,
  n: number,
  concurrency: number,
  opts: Options,
  stop: AbortSignal,
): Promise<RunResult> {
  const timings: ExchangeTiming[] = [];
  const failures: string[] = [];
  let dispatched = 0;
  const lane = async () => {
    while (dispatched < n && failures.length === 0 && !stop.aborted) {
      const index = dispatched++;
      try {
        timings.push(await runExchange(url, AbortSignal.any([stop, AbortSignal.timeout(opts.exchangeTimeoutMs)])));
      } catch (error) {
        failures.push(`exchange #${index}: ${(error as Error).message}`);
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, lane));
  return { timings, failures, wallMs: performance.now() - start };
}

// ---------------------------------------------------------------------------------------------
// Stack: Temporal, Postgres, API and worker; torn down in reverse order

const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);

async function main(): Promise<number> {
  const opts = readOptions(process.argv.slice(2), process.env);
  const log = pino({ level: opts.logLevel, base: { service: 'bench' } }, pino.destination(2));
  const note = (line: string) => process.stderr.write(`[bench] ${line}\n`);
  // The Temporal SDK logs worker state changes at INFO to stderr; hold it to the bench's level.
  const sdkLevels = { trace: 'TRACE', debug: 'DEBUG', info: 'INFO', warn: 'WARN' } as const;
  Runtime.install({ logger: new DefaultLogger(sdkLevels[opts.logLevel as keyof typeof sdkLevels] ?? 'ERROR') });

  const stop = new AbortController();
  let interrupted: NodeJS.Signals | undefined;
  let interruptedAt = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    if (interrupted) {
      // A Ctrl-C can arrive twice within moments (terminal group + tsx relay); only a later one forces.
      if (performance.now() - interruptedAt < 1_000) return;
      note(`${sig} again: exiting without teardown`);
      process.exit(130);
    }
    interrupted = sig;
    interruptedAt = performance.now();
    note(`${sig}: stopping and tearing down (again to force)`);
    stop.abort(new Error(sig));
  };
  // Anything thrown outside the run (a pg client whose server went away, say) ends the run and
  // still tears down, instead of crashing past the teardown and orphaning the child servers.
  let fatal: unknown;
  const onUncaught = (error: unknown) => {
    if (interrupted) return note(`after ${interrupted}: ${(error as Error)?.message ?? String(error)}`);
    fatal ??= error;
    note(`uncaught: ${(error as Error)?.stack ?? String(error)}`);
    stop.abort(error);
  };
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
  const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const sig of SIGNALS) process.on(sig, onSignal);
  const teardown: Array<[string, () => Promise<void>]> = [];
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-bench-'));
  chmodSync(scratch, 0o755); // an embedded Postgres runs as its own user when we are root
  let keepScratch = false;
  let exitCode = 0;

  try {
    const setupStart = performance.now();
    const local = await startLocalStack({
      dataDir: scratch,
      database: 'mcp_bench',
      persistent: false,
      onStart: (server) => note(server === 'temporal' ? 'starting Temporal dev server' : 'starting embedded Postgres'),
    });
    teardown.push([
      'local stack',
      async () => {
        // pg-pool's end() resolves before its sockets close, so a fast shutdown terminates a few
        // already-released clients and the pools warn about it: expected here, not worth a line.
        log.level = 'error';
        await local.stop();
      },
    ]);

    const config = parseConfig({
      DATABASE_URL: local.databaseUrl,
      TEMPORAL_ADDRESS: local.temporalAddress,
      TEMPORAL_TASK_QUEUE: `bench-${randomUUID()}`,
      REQUEST_STATE_KEYS: `bench:${randomBytes(32).toString('base64')}`,
      PORT: '0',
      LOG_LEVEL: opts.logLevel,
    });
    note('starting worker and API (bundling workflows)');
    const service = await startService({ config, handlers: loadHandlerSet(config.handlerSet), log });
    teardown.push(['service', () => service.stop()]);
    service.worker!.done.catch((error: unknown) => stop.abort(error));
    const api = service.api!;
    const setupMs = performance.now() - setupStart;

    if (opts.warmup > 0) {
      note(`warmup: ${opts.warmup} exchanges`);
      const warm = await runMany(api.url, opts.warmup, opts.concurrency, opts, stop.signal);
      if (warm.failures.length) throw new Error(`warmup failed: ${warm.failures[0]}`);
    }

    note(`measuring: ${opts.n} exchanges, concurrency ${opts.concurrency}`);
    const rssBefore = process.memoryUsage().rss;
    const run = await runMany(api.url, opts.n, opts.concurrency, opts, stop.signal);
    const rssAfter = process.memoryUsage().rss;
    if (stop.signal.aborted && run.failures.length === 0) run.failures.push(`stopped: ${String(stop.signal.reason)}`);

    report(opts, setupMs, run, rssBefore, rssAfter);
    if (interrupted) {
      exitCode = 130;
      note(`interrupted: ${run.timings.length} exchanges completed, ${run.failures.length} abandoned in flight`);
    } else if (run.failures.length) {
      exitCode = 1;
      keepScratch = true;
      for (const f of run.failures.slice(0, 5)) note(`FAILED ${f}`);
      if (run.failures.length > 5) note(`... and ${run.failures.length - 5} more`);
    }
  } catch (error) {
    if (interrupted) {
      exitCode = 130;
      note(`interrupted during setup or warmup`);
    } else {
      exitCode = 2;
      keepScratch = true;
      note(`error: ${(error as Error).stack ?? String(error)}`);
    }
  } finally {
    for (const [name, fn] of teardown.reverse()) {
      try {
        await fn();
      } catch (error) {
        exitCode ||= 2;
        note(`teardown of ${name} failed: ${(error as Error).message}`);
      }
    }
    if (fatal !== undefined && !interrupted) {
      exitCode ||= 2;
      keepScratch = true;
    }
    if (keepScratch && readdirSync(scratch).length > 0) note(`logs kept in ${scratch}`);
    else rmSync(scratch, { recursive: true, force: true });
  }
  return exitCode;
}

// ---------------------------------------------------------------------------------------------
// Output

function report(opts: Options, setupMs: number, run: RunResult, rssBefore: number, rssAfter: number): void {
  const cores = { cpus: os.cpus().length, availableParallelism: os.availableParallelism() };
  const rows: Array<[string, LatencySummary]> = [
    ['leg 1 (start → ask)', summarize(run.timings.map((t) => t.leg1Ms))],
    ['leg 2 (answer → result)', summarize(run.timings.map((t) => t.leg2Ms))],
    ['exchange (whole)', summarize(run.timings.map((t) => t.totalMs))],
  ];
  const requests = run.timings.reduce((s, t) => s + t.requests, 0);
  const resends = run.timings.reduce((s, t) => s + t.stateOnlyResends, 0);
  const wallS = run.wallMs / 1000;
  const completed = run.timings.length;

  const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');
  const header = ['latency (ms)', 'n', 'p50', 'p90', 'p99', 'max', 'mean'];
  const table = rows.map(([name, s]) => [
    name,
    String(s.count),
    fmt(s.p50),
    fmt(s.p90),
    fmt(s.p99),
    fmt(s.max),
    fmt(s.mean),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');

  const out: string[] = [
    `durable-mcp exchange bench — node ${process.version}, ${os.platform()}/${os.arch()}, ` +
      `${cores.cpus} cpus (availableParallelism ${cores.availableParallelism}), ${os.cpus()[0]?.model.trim() ?? '?'}`,
    `exchanges ${completed}/${opts.n} ok, ${run.failures.length} failed; concurrency ${opts.concurrency}; warmup ${opts.warmup}; ` +
      `stack setup ${(setupMs / 1000).toFixed(1)} s`,
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...table.map(line),
    '',
    `wall time          ${wallS.toFixed(2)} s`,
    `exchanges/s        ${(completed / wallS).toFixed(2)}`,
    `legs (HTTP req)/s  ${(requests / wallS).toFixed(2)}  (${requests} requests, ${resends} state-only re-sends)`,
    `bench process RSS  ${mb(rssBefore)} MiB before → ${mb(rssAfter)} MiB after (API + worker in-process)`,
    '',
  ];
  process.stdout.write(out.join('\n') + '\n');

  const latency = (s: LatencySummary) => ({
    p50: round(s.p50),
    p90: round(s.p90),
    p99: round(s.p99),
    max: round(s.max),
    mean: round(s.mean),
  });
  const summary = {
    bench: 'exchange',
    node: process.version,
    cpus: cores.cpus,
    availableParallelism: cores.availableParallelism,
    n: opts.n,
    concurrency: opts.concurrency,
    warmup: opts.warmup,
    ok: completed,
    failed: run.failures.length,
    wallMs: round(run.wallMs),
    exchangesPerSec: round(completed / wallS, 2),
    legsPerSec: round(requests / wallS, 2),
    requests,
    stateOnlyResends: resends,
    leg1Ms: latency(rows[0]![1]),
    leg2Ms: latency(rows[1]![1]),
    exchangeMs: latency(rows[2]![1]),
    rssBeforeMiB: mb(rssBefore),
    rssAfterMiB: mb(rssAfter),
  };
  process.stdout.write(JSON.stringify(summary) + '\n');
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[bench] ${(error as Error).stack ?? String(error)}\n`);
    process.exit(2);
  },
);
