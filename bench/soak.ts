/**
 * `npm run bench:soak`: a mixed load for `--minutes` against the service as separate OS processes
 * (the fault suite's stack, test/faults/support/fault-stack.ts: one worker, two API replicas, a
 * Temporal dev server, an embedded Postgres, each logging to its own file), driven by the fault
 * suite's clients (soak-modern/legacy/task/question.ts), while the worker and one API replica are
 * SIGKILLed and started again at random times (soak-chaos.ts). After the load, the exchanges in
 * flight get `--drain-s` to end; then it reads the service's own record and prints the report
 * (soak-report.ts) and one JSON summary line. stdout: the report; stderr: progress. Exit 1 when
 * the answers accepted and applied differ; otherwise as the other bench scripts (bench-run.ts).
 */
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../cli/dev/local-stack/free-port';
import { startFaultStack, type FaultStack } from '../test/faults/support/fault-stack';
import { newTrace } from '../test/faults/support/modern-exchange';
import { note, runBench, type BenchRun } from './bench-run';
import { startSoakAuth } from './soak-auth';
import { startChaos } from './soak-chaos';
import type { SoakContext } from './soak-context';
import { CLIENT_ENDS, reconcile, resolveKey, SoakLedger, whyStillRunning, type ClientEnd } from './soak-ledger';
import { startLoad } from './soak-load';
import { childrenOf, startMemorySampler, summarizeMemory, type MemorySource } from './soak-memory';
import { readSoakOptions, SOAK_KINDS, SOAK_USAGE, type SoakKind, type SoakOptions } from './soak-options';
import {
  apiGauges,
  appliedKeys,
  exchangeStatuses,
  openRecords,
  refMap,
  runningExchanges,
  tableRows,
} from './soak-readings';
import { renderSoak, type SoakResult } from './soak-report';
import { soakSummaryJson } from './soak-summary';

const PROGRESS_EVERY_MS = 30_000;
/** For the last round recorded by a driver that just returned to reach every table. */
const SETTLE_MS = 3_000;

const kindsMap = <T>(value: (kind: SoakKind) => T) =>
  Object.fromEntries(SOAK_KINDS.map((kind) => [kind, value(kind)])) as Record<SoakKind, T>;

function memorySources(stack: FaultStack, authPid: number): MemorySource[] {
  const one = (pid: number | undefined) => (pid === undefined ? [] : [pid]);
  return [
    { process: 'temporal', pids: () => one(stack.temporal()?.running() ? stack.temporal()!.pid : undefined) },
    { process: 'postgres', pids: () => childrenOf(stack.postgres()?.pid), pss: true },
    { process: 'worker', pids: () => one(stack.worker()?.pid) },
    { process: 'api0', pids: () => one(stack.apiPid(0)) },
    { process: 'api1', pids: () => one(stack.apiPid(1)) },
    { process: 'auth server', pids: () => [authPid] },
    { process: 'soak client', pids: () => [process.pid], read: () => process.memoryUsage().rss },
  ];
}

function header(opts: SoakOptions, loadAverageStart: number[]): string[] {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const mix = SOAK_KINDS.map((k) => `${k}=${opts.mix[k]}`).join(',');
  return [
    `durable-mcp soak, ${new Date().toISOString()}; nproc ${os.cpus().length}, ${cpu}; node ${process.version} ${process.platform}/${process.arch}; load average ${loadAverageStart.map((l) => l.toFixed(2)).join(' ')} at start, ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at end`,
    `--minutes ${opts.minutes} --concurrency ${opts.concurrency} --rate ${opts.rate} --mix ${mix} --think-ms ${opts.thinkMs} --kill-every-s ${opts.killEverySeconds} --down-s ${opts.downSeconds} --seed ${opts.seed} --drain-s ${opts.drainSeconds} --patience-s ${opts.patienceSeconds}`,
    'stack: 1 worker, 2 API replicas, a Temporal dev server, an embedded Postgres (separate processes); AUTH_MODE=oauth, HTTP_WAIT_MS=2000, LEGACY_PENDING_AFTER_MS=0',
  ];
}

async function soak(run: BenchRun, opts: SoakOptions, stack: FaultStack, ctx: SoakContext) {
  const loadAverageStart = os.loadavg();
  const rowsAtStart = await tableRows(stack);
  const sampler = startMemorySampler(memorySources(stack, ctx.auth.pid), opts.sampleSeconds * 1000);
  const loadStart = Date.now();
  const stopAt = loadStart + opts.minutes * 60_000;
  const chaos = startChaos(stack, opts, loadStart);
  const load = startLoad(ctx, opts, stopAt);
  const progress = setInterval(() => {
    const ended = [...ctx.ledger.ends.values()].reduce((a, b) => a + b, 0);
    note(
      `${((Date.now() - loadStart) / 1000).toFixed(0)} s: ${ended} exchanges ended, ${load.inFlight()} in flight, ${chaos.events.length} kills`,
    );
  }, PROGRESS_EVERY_MS);
  await sleep(stopAt - Date.now(), undefined, { signal: run.signal }).catch(() => undefined);
  note('load over: stopping the kills, then draining');
  await chaos.stop();
  // Whatever a kill left down comes back for the drain.
  if (!stack.worker()) await stack.startWorker();
  for (const slot of [0, 1] as const) if (!stack.apiRunning(slot)) await stack.startApi(slot);
  const drainStart = Date.now();
  await Promise.race([load.drained, sleep(opts.drainSeconds * 1000, undefined, { signal: run.signal })]).catch(
    () => undefined,
  );
  clearInterval(progress);
  const drainSeconds = (Date.now() - drainStart) / 1000;
  await sleep(SETTLE_MS);

  const refs = await refMap(stack);
  const resolve = (keys: Iterable<string>) => [...keys].map((key) => resolveKey(key, refs));
  const answers = reconcile({
    accepted: resolve(ctx.ledger.accepted),
    sent: resolve(ctx.ledger.sent),
    applied: await appliedKeys(stack),
  });
  const idOf = (ref: string) => resolveKey(`${ref}#0`, refs).slice(0, -2);
  const tracks = new Map(load.tracks.filter((t) => t.ref).map((t) => [idOf(t.ref!), t]));
  const notes = new Map([...ctx.ledger.notes].map(([ref, text]) => [idOf(ref), text]));
  const running = (await runningExchanges(stack)).map((e) => ({
    ...e,
    why: whyStillRunning({
      ...e,
      note: notes.get(e.id),
      known: tracks.has(e.id),
      inFlight: tracks.get(e.id)?.done !== true && tracks.has(e.id),
    }),
  }));
  const open = await openRecords(stack);
  sampler.stop();
  const result: SoakResult = {
    header: header(opts, loadAverageStart),
    options: opts,
    loadSeconds: (drainStart - loadStart) / 1000,
    drainSeconds,
    inFlightAfterDrain: load.inFlight(),
    started: kindsMap((kind) => ctx.ledger.started.get(kind) ?? 0),
    clientEnds: kindsMap(
      (kind) =>
        Object.fromEntries(CLIENT_ENDS.map((end) => [end, ctx.ledger.ended(kind, end)])) as Record<ClientEnd, number>,
    ),
    statuses: await exchangeStatuses(stack),
    answers,
    running,
    open: {
      ...open,
      sessionsTheClientEnded: open.openSessions.filter((id) => ctx.ledger.sessionsClosed.has(id)).length,
    },
    gauges: await apiGauges(stack),
    rows: { start: rowsAtStart, end: await tableRows(stack) },
    chaos: chaos.events,
    memory: summarizeMemory(sampler.samples),
    trace: ctx.trace,
    reattaches: ctx.reattaches,
    problems: ctx.ledger.problems,
  };
  return result;
}

async function main(run: BenchRun): Promise<number> {
  let opts: SoakOptions;
  try {
    opts = readSoakOptions(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${SOAK_USAGE}\n`);
    return 2;
  }
  if (opts.help) {
    process.stdout.write(`${SOAK_USAGE}\n`);
    return 0;
  }
  note('starting the authorization server and the stack (Temporal, Postgres, a worker, two APIs)');
  const auth = await startSoakAuth();
  let stack: FaultStack | undefined;
  let keep = opts.keepLogs;
  try {
    stack = await startFaultStack({
      sharedWorkflowBundle: true,
      // A port of its own for the worker's metrics (each restart binds it again), whatever else runs here.
      serviceEnv: { WORKER_METRICS_PORT: String(await freePort()) },
      // The soak's legacy client waits as long as its call runs, so no call is answered pending.
      apiEnv: { ...auth.apiEnv, LEGACY_PENDING_AFTER_MS: '0' },
    });
    const ctx: SoakContext = {
      stack,
      auth,
      ledger: new SoakLedger(),
      trace: newTrace(),
      reattaches: 0,
      patienceMs: opts.patienceSeconds * 1000,
      thinkMs: opts.thinkMs,
    };
    note(`load: ${opts.minutes} min at concurrency ${opts.concurrency}; logs in ${stack.scratch}/logs`);
    const result = await soak(run, opts, stack, ctx);
    if (run.abortedBy()) return 130;
    const exitCode = result.answers.equal ? 0 : 1;
    keep ||= exitCode !== 0;
    process.stdout.write(renderSoak(result));
    process.stdout.write(soakSummaryJson(result, exitCode));
    return exitCode;
  } finally {
    await stack
      ?.close(keep)
      .catch((error: unknown) => note(`the stack did not stop cleanly: ${(error as Error).message}`));
    await auth.stop().catch(() => undefined);
  }
}

runBench('durable-mcp-soak-', main);
