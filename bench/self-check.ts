/**
 * `npm run bench:check`: the bench's pure parts checked without jest (the bench stays out of
 * `npm test`): options, /proc parsing and tree sums, leg checks, ratios and table layout. The
 * end-to-end smoke run is `npm run bench -- --quick`.
 */
import assert from 'node:assert/strict';
import { readOpenWaitsOptions } from './open-waits-options';
import { readOptions, SCENARIOS, TARGETS } from './options';
import { parseProcStat, readProcessTable, sampleCpu, treeTicks, type ProcStat } from './proc-cpu';
import { BASELINES_OF, ratios, render, SERVICE_ROWS, table, type PhaseResult, type TargetResult } from './report';
import { mismatch, SCENARIO_SPECS } from './scenarios';
import { aggregateProfile, sourceOf, type CpuProfile } from './profile-aggregate';
import { summarize } from './stats';
import { actionsPerExchange, parseActions } from './temporal-actions';
import { median, medianOf, medianResults, ratiosOverRuns } from './run-medians';
import { renderOpenWaitsPlot, tickStep } from './open-waits-plot';
import { legStages, STAGES, summarizeStages } from './leg-breakdown';
import { nanosToMs, spansOf } from './otlp-receiver';
import { serviceEnv } from './service-env';
import { BENCH_TOOLS } from './baselines/tools';
import { TARGET_SPECS } from './targets';
import { parseConfig } from '../lib/config/config';
import { callBudgetMs } from '../lib/upstreams/call-budget';

/** The gateway targets' upstream, and the rest of their service environment on `taskQueue`. */
const UPSTREAM_URL = 'http://127.0.0.1:4001/mcp';
const gatewayBase = (taskQueue: string) => ({
  databaseUrl: 'postgres://u:p@127.0.0.1:5432/bench',
  temporalAddress: '127.0.0.1:7233',
  taskQueue,
  port: 4000,
});

const checks: Array<[string, () => void]> = [
  [
    "actions: the server's counter read per type for one namespace, and its growth per exchange",
    () => {
      const exposition = [
        '# HELP action action',
        '# TYPE action counter',
        'action{action_type="grpc_StartWorkflowExecution",namespace="default",operation="StartWorkflowExecution"} 12',
        'action{action_type="grpc_StartWorkflowExecution",namespace="temporal_system",operation="StartWorkflowExecution"} 2',
        'action{action_type="command_StartTimer",namespace="default",operation="RespondWorkflowTaskCompleted"} 4',
        'action{action_type="command_StartTimer",namespace="default",operation="Other"} 1',
        'action_total{namespace="default"} 99',
      ].join('\n');
      const after = parseActions(exposition, 'default');
      assert.deepEqual(after, { grpc_StartWorkflowExecution: 12, command_StartTimer: 5 });
      const per = actionsPerExchange({ grpc_StartWorkflowExecution: 2, command_StartTimer: 5 }, after, 10);
      assert.deepEqual(per, { total: 1, byType: { grpc_StartWorkflowExecution: 1 } });
    },
  ],
  [
    'options: defaults, flags over variables, lists in canonical order, --quick sizes',
    () => {
      const d = readOptions([], {});
      assert.deepEqual([d.n, d.nConcurrent, d.concurrency, d.warmup, d.thinkMs, d.build], [100, 200, 16, 20, 0, true]);
      assert.equal(readOptions(['--think-ms', '200'], {}).thinkMs, 200);
      assert.equal(readOptions([], { BENCH_THINK_MS: '150' }).thinkMs, 150);
      assert.deepEqual(d.targets, [...TARGETS]);
      assert.deepEqual(d.scenarios, [...SCENARIOS]);
      assert.deepEqual(d.temporalFlags, []);
      const o = readOptions(
        ['--n=5', '--targets', 'sdk,dev', '--temporal-flags', '--sqlite-pragma journal_mode=wal', '--no-build'],
        { BENCH_N: '7', BENCH_WARMUP: '3' },
      );
      assert.equal(o.n, 5);
      assert.equal(o.warmup, 3);
      assert.deepEqual(o.targets, ['dev', 'sdk']);
      assert.deepEqual(readOptions(['--targets', 'sdk,gateway,dev'], {}).targets, ['dev', 'gateway', 'sdk']);
      assert.deepEqual(o.temporalFlags, ['--sqlite-pragma', 'journal_mode=wal']);
      assert.equal(o.build, false);
      const q = readOptions(['--quick', '--n', '3'], {});
      assert.deepEqual([q.n, q.nConcurrent, q.warmup], [3, 32, 4]);
      assert.equal(readOptions(['--profile', 'prof'], {}).profile, 'prof');
      assert.equal(d.profile, undefined);
      assert.throws(() => readOptions(['--targets', 'nope'], {}), /unknown target "nope"/);
      assert.throws(() => readOptions(['--n', '0'], {}), /must be an integer >= 1/);
      assert.throws(() => readOptions(['--bogus'], {}), /unknown option --bogus/);
      assert.throws(() => readOptions(['--quick=1'], {}), /takes no value/);
    },
  ],
  [
    "gateway target: the service's own config loader reads its environment as the bench's upstream alone, under the scenarios' tool names",
    () => {
      const base = gatewayBase('bench-gateway');
      const gateway = parseConfig(serviceEnv({ ...base, upstreamUrl: UPSTREAM_URL }));
      assert.equal(gateway.handlers, 'none');
      assert.deepEqual(
        gateway.upstreams.map((u) => [u.name, u.url, u.toolPrefix, u.authorization]),
        [['sdk', UPSTREAM_URL, '', undefined]],
      );
      // No prefix: every scenario's tool is a name the upstream serves, listed as it is.
      for (const scenario of Object.values(SCENARIO_SPECS))
        assert.ok((BENCH_TOOLS as readonly string[]).includes(gateway.upstreams[0]!.toolPrefix + scenario.tool));
      assert.equal(gateway.upstreams[0]!.roundActivity, 'regular');
      const local = parseConfig(serviceEnv(base));
      assert.deepEqual([local.handlers, local.upstreams], ['bench', []]);
      assert.deepEqual(
        [TARGET_SPECS.gateway.temporal, TARGET_SPECS.gateway.oneProcess, TARGETS.includes('gateway')],
        [true, true, true],
      );
    },
  ],
  [
    "gateway-local target: the same upstream, its rounds local, its calls' budget within the local bound the service is given (the config loader refuses it otherwise)",
    () => {
      const base = gatewayBase('bench-gateway-local');
      const config = parseConfig(serviceEnv({ ...base, upstreamUrl: UPSTREAM_URL, upstreamRounds: 'local' }));
      assert.equal(config.handlers, 'none');
      assert.deepEqual(
        config.upstreams.map((u) => [u.name, u.url, u.toolPrefix, u.roundActivity]),
        [['sdk', UPSTREAM_URL, '', 'local']],
      );
      assert.ok(callBudgetMs(config.upstreams[0]!) < config.exchange.localHandlerTimeoutMs);
      assert.deepEqual(
        [
          TARGET_SPECS['gateway-local'].temporal,
          TARGET_SPECS['gateway-local'].oneProcess,
          TARGETS.includes('gateway-local'),
        ],
        [true, true, true],
      );
      // Measured against the sdk server, the local handlers and the gateway with regular rounds.
      assert.deepEqual(BASELINES_OF['gateway-local'], ['sdk', 'dev', 'gateway']);
      assert.ok(SERVICE_ROWS.includes('gateway-local'));
    },
  ],
  [
    'open-waits options: --heap, and --heap-snapshots DIR which implies it',
    () => {
      assert.equal(readOpenWaitsOptions([], {}).heap, false);
      assert.equal(readOpenWaitsOptions(['--heap'], {}).heapSnapshotDir, undefined);
      const s = readOpenWaitsOptions(['--heap-snapshots', '/tmp/heaps'], {});
      assert.deepEqual([s.heap, s.heapSnapshotDir], [true, '/tmp/heaps']);
      assert.throws(() => readOpenWaitsOptions(['--heap=1'], {}), /takes no value/);
    },
  ],
  [
    'proc-cpu: a stat line whose name holds spaces and parentheses; a tree counts live descendants once',
    () => {
      const fields = Array.from({ length: 50 }, (_, i) => String(i + 3)); // field k holds the number k
      const stat = parseProcStat(`42 (node (tsx) x) ${fields.join(' ')}`);
      assert.deepEqual(stat, { pid: 42, ppid: 4, ticks: 14 + 15 + 16 + 17 });
      const table = new Map<number, ProcStat>([
        [1, { pid: 1, ppid: 0, ticks: 1000 }],
        [10, { pid: 10, ppid: 1, ticks: 5 }],
        [11, { pid: 11, ppid: 10, ticks: 7 }],
        [12, { pid: 12, ppid: 11, ticks: 11 }],
        [20, { pid: 20, ppid: 1, ticks: 100 }],
      ]);
      assert.equal(treeTicks([10], table), 23);
      assert.equal(treeTicks([10, 11], table), 23);
      assert.equal(treeTicks([99], table), 0);
      assert.ok(readProcessTable().has(process.pid));
      assert.ok(sampleCpu({ self: [process.pid] }).self! > 0);
    },
  ],
  [
    'scenarios: asks and results are checked against the spec',
    () => {
      const ask = { resultType: 'input_required', inputRequests: { name: {} }, requestState: 's' };
      assert.equal(mismatch(ask, { ask: 'name' }), undefined);
      assert.equal(mismatch({ ...ask, requestState: undefined }, { ask: 'name' }), undefined);
      assert.match(mismatch(ask, { ask: 'color' })!, /expected an ask for "color"/);
      assert.match(mismatch({ resultType: 'input_required', requestState: 's' }, { ask: 'name' })!, /expected an ask/);
      assert.equal(mismatch({ content: [{ type: 'text', text: 'done' }] }, { text: 'done' }), undefined);
      assert.match(mismatch(ask, { text: 'done' })!, /expected "done"/);
      assert.deepEqual(
        Object.values(SCENARIO_SPECS).map((s) => s.legs.length),
        [1, 2, 3],
      );
    },
  ],
  [
    'report: ratios of each service row to the baselines of its server; one aligned table per scenario',
    () => {
      const phase = (p50: number, exPerSec: number, cpu: number): PhaseResult => ({
        concurrency: 1,
        completed: 3,
        failed: 0,
        wallMs: 1,
        exchangesPerSec: exPerSec,
        legs: [summarize([p50, p50, p50]), summarize([p50 * 2])],
        exchange: summarize([p50]),
        requests: 6,
        stateOnlyResends: 0,
        cpuPer100: { api: cpu, total: cpu, client: 0.1 },
      });
      const target = (name: TargetResult['target'], p50: number, exPerSec: number, cpu: number): TargetResult => ({
        target: name,
        scenarios: [
          { target: name, scenario: 'two', serial: phase(p50, 0, 0), loaded: phase(0, exPerSec, cpu), failures: [] },
        ],
      });
      const results = [target('dev', 40, 10, 8), target('sdk', 4, 100, 0.5), target('bare-local', 20, 20, 4)];
      const all = ratios(results);
      assert.deepEqual(
        all.map((r) => [r.service, r.baseline, r.legP50[0], r.legP99[1], r.exchangesPerSec, r.cpuPerExchange]),
        [
          ['dev', 'sdk', 10, 10, 0.1, 16],
          ['dev', 'bare-local', 2, 2, 0.5, 2],
        ],
      );
      // The production server's service row is held to bare Temporal on that server, never the dev server's.
      const production = ratios([...results, target('compose', 60, 8, 10), target('bare-compose', 40, 16, 5)]);
      assert.deepEqual(
        production.filter((r) => r.service === 'compose').map((r) => [r.baseline, r.legP50[0], r.exchangesPerSec]),
        [
          ['sdk', 15, 0.08],
          ['bare-compose', 1.5, 0.5],
        ],
      );
      // The gateway against the server it fronts called directly, and against the service running the tools itself;
      // its upstream's CPU counts in its total, and its column shows only where a target has one.
      const gatewayTarget = target('gateway', 48, 8, 9);
      gatewayTarget.scenarios[0]!.loaded!.cpuPer100 = { api: 8, upstream: 1, total: 9, client: 0.1 };
      const fronted = ratios([...results, gatewayTarget]);
      assert.deepEqual(
        fronted.filter((r) => r.service === 'gateway').map((r) => [r.baseline, r.legP50[0], r.cpuPerExchange]),
        [
          ['sdk', 12, 18],
          ['dev', 1.2, 1.13],
        ],
      );
      const info = {
        date: 'd',
        nproc: 2,
        cpuModel: 'cpu',
        node: 'v',
        platform: 'p',
        loadAverageStart: [0, 0, 0],
        loadAverageEnd: [0, 0, 0],
        n: 3,
        nConcurrent: 3,
        concurrency: 16,
        warmup: 0,
        runs: 1,
        temporalFlags: [],
      };
      const withGateway = render(info, [...results, gatewayTarget], ['two']);
      assert.match(withGateway, /postgres\s+upstream\s+total/);
      assert.match(withGateway, /gateway(\s+\S+){5}\s+-\s+8\.00\s+in api\s+-\s+1\.00\s+9\.00/);
      assert.match(withGateway, /two\s+gateway\s+sdk\s+12\.00x/);
      assert.doesNotMatch(render(info, results, ['two']), /upstream\s+total/);
      assert.deepEqual(table(['a', 'bb'], [['xyz', '1']]), ['a    bb', '---  --', 'xyz   1']);
      const text = render(info, results, ['two']);
      assert.match(text, /two-round/);
      assert.match(text, /dev\s+40\.0\s+40\.0\s+80\.0\s+80\.0/);
      assert.match(text, /two\s+dev\s+sdk\s+10\.00x/);

      // Three runs: each figure the median of its runs, each ratio taken within its run, then folded.
      const runs = [
        [target('dev', 40, 10, 8), target('bare-local', 20, 20, 4)],
        [target('dev', 90, 2, 8), target('bare-local', 30, 20, 4)],
        [target('dev', 44, 10, 8), target('bare-local', 22, 20, 4)],
      ];
      const folded = medianResults(runs);
      assert.equal(folded[0]!.scenarios[0]!.serial!.legs[0]!.p50, 44);
      assert.equal(folded[1]!.scenarios[0]!.serial!.legs[0]!.p50, 22);
      const [dev] = ratiosOverRuns(runs);
      assert.deepEqual([dev!.median.legP50[0], dev!.min.legP50[0], dev!.max.legP50[0], dev!.runs], [2, 2, 3, 3]);
      assert.equal(median([3, 1, 2, 10]), 2.5);
      assert.equal(medianOf([{ a: [1, 'x'] }, { a: [5, 'y'] }, { a: [3, 'z'] }]).a[0], 3);
    },
  ],
  [
    'profile-aggregate: sources, native frames charged to their caller, idle and windows left out',
    () => {
      assert.equal(sourceOf('file:///r/node_modules/@temporalio/worker/lib/worker.js', '/r'), '@temporalio/worker');
      assert.equal(sourceOf('file:///r/node_modules/pg/lib/client.js', '/r'), 'pg');
      assert.equal(sourceOf('node:net', '/r'), 'node built-ins');
      assert.equal(sourceOf('/r/workflow-bundle-abc123.js', '/r'), 'workflow bundle');
      assert.equal(sourceOf('file:///r/lib/db/exchange-store.ts', '/r'), 'lib/db');
      const frame = (id: number, functionName: string, url: string, children?: number[]) => ({
        id,
        callFrame: { functionName, url, lineNumber: 0 },
        ...(children ? { children } : {}),
      });
      const profile: CpuProfile = {
        nodes: [
          frame(1, '(root)', '', [2, 5]),
          frame(2, 'query', 'file:///r/node_modules/pg/lib/client.js', [3]),
          frame(3, 'write', 'node:net', [4]),
          frame(4, 'writev', ''),
          frame(5, '(idle)', ''),
        ],
        // samples at 10, 20, 30, 40, 50 µs; each lasts until the next
        startTime: 0,
        endTime: 60,
        samples: [2, 4, 4, 5, 2],
        timeDeltas: [10, 10, 10, 10, 10],
      };
      const all = aggregateProfile(profile, '/r');
      assert.deepEqual([all.sampledUs, all.busyUs], [40, 30]);
      assert.deepEqual(
        [...all.bySource],
        [
          ['pg', 10],
          ['node built-ins', 20],
        ],
      );
      assert.deepEqual([...all.byCaller], [['pg', 30]]);
      assert.equal(all.byFunction.get('writev (native)'), 20);
      const windowed = aggregateProfile(profile, '/r', [{ startUs: 15, endUs: 35 }]);
      assert.deepEqual([windowed.busyUs, windowed.byCaller.get('pg')], [20, 20]);
    },
  ],
  [
    'open-waits plot: round axis steps, and a line per series drawn through every checkpoint',
    () => {
      assert.deepEqual([tickStep(100_000), tickStep(300), tickStep(7), tickStep(0)], [20_000, 50, 1, 1]);
      const latency = { count: 1, min: 1, mean: 1, p50: 20, p90: 1, p99: 30, max: 1 };
      const svg = renderOpenWaitsPlot(
        [0, 50_000, 100_000].map((open) => ({
          open,
          memory: { api: 140 * 1024 * 1024, worker: 700 * 1024 * 1024 },
          temporalDiskBytes: open * 28_000,
          postgresDiskBytes: 50 * 1024 * 1024,
          firstLeg: latency,
        })),
        'a <title>',
      );
      const lines = [...svg.matchAll(/<polyline [^>]*points="([^"]*)"/g)].map((m) => m[1]!.split(' ').length);
      // API, worker, both disks; p50 and p99: three points each.
      assert.deepEqual(lines, [3, 3, 3, 3, 3, 3]);
      assert.match(svg, /a &lt;title>/);
      assert.match(svg, />100k</);
    },
  ],
  [
    "answer-leg breakdown: a leg's stages from its spans add up to what its client timed, with or without a read before its signal; nanoseconds read exactly",
    () => {
      assert.equal(nanosToMs('1733350000123456789'), 1733350000123.456789);
      assert.equal(nanosToMs(2_500_000), 2.5);
      assert.deepEqual(
        spansOf({
          resourceSpans: [
            { scopeSpans: [{ spans: [{ name: 'a', startTimeUnixNano: '1000000', endTimeUnixNano: '3000000' }] }] },
          ],
        }),
        [{ name: 'a', startMs: 1, endMs: 3 }],
      );
      const span = (name: string, startMs: number, endMs: number) => ({ name, startMs, endMs });
      const leg = {
        sentMs: 100,
        receivedMs: 150,
        spans: [
          span('mcp tools/call', 102, 147),
          span('verify requestState', 103, 103.5),
          span('read exchange trace', 104, 105),
          span('read rounds', 105.5, 106.5),
          span('SignalWorkflow:answers', 107, 112),
          span('RunActivity:runRound', 120, 130),
          span('handler bench_two round 2', 121, 121.2),
          span('record round', 122, 126),
          span('await round', 112.2, 127),
        ],
      };
      const stages = legStages(leg);
      assert.ok(!('missing' in stages));
      const sum = STAGES.reduce((total, [stage]) => total + stages[stage], 0);
      assert.ok(Math.abs(sum - 50) < 1e-9, `stages add up to ${sum}`);
      assert.deepEqual(
        [stages['trace link'], stages.checks, stages['workflow task'], stages.notify, stages['http out']],
        [1, 1.5, 8, 1, 3],
      );
      assert.deepEqual(legStages({ ...leg, spans: leg.spans.slice(0, 2) }), {
        missing: ['signal', 'activity', 'handler', 'record', 'awaited'],
      });
      // An answer to an ask the API kept: nothing read before the signal, the checks take its place.
      const kept = legStages({ ...leg, spans: leg.spans.filter((s) => s.name !== 'read rounds') });
      assert.ok(!('missing' in kept));
      assert.deepEqual([kept['read rounds'], kept.checks], [0, 2.5]);
      const summary = summarizeStages([stages, stages]);
      assert.equal(summary.find((s) => s.stage === 'signal')?.mean, 5);
    },
  ],
];

let failed = 0;
for (const [name, check] of checks) {
  try {
    check();
    process.stdout.write(`ok    ${name}\n`);
  } catch (error) {
    failed++;
    process.stdout.write(`FAIL  ${name}\n${(error as Error).stack ?? String(error)}\n`);
  }
}
process.exit(failed ? 1 : 0);
