/**
 * How the bench's results are printed: one table per scenario (leg latency at
 * concurrency 1, exchanges/s and CPU per 100 exchanges at the bench's concurrency), the ratios of
 * each service row to the baselines, and one exchange's history by event type. Pure: it formats
 * what it is given.
 */
import { DEV_SERVER_DYNAMIC_CONFIG_FLAGS, DEV_SERVER_SQLITE_FLAGS } from '../cli/dev/local-stack/temporal-dev-server';
import type { ScenarioName } from './options';
import { SCENARIO_SPECS } from './scenarios';
import { TARGET_SPECS } from './targets';
import { ratios, ROLES, type Ratio, type RunInfo, type TargetResult } from './results';
import type { RatioOverRuns } from './run-medians';

export * from './results';
export { summaryJson } from './summary-json';

/** Aligned columns: the first left-aligned, the rest right-aligned, two spaces apart. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

const ms = (v: number | undefined) =>
  v === undefined || !Number.isFinite(v) ? '-' : v < 10 ? v.toFixed(2) : v.toFixed(1);
const num = (v: number | undefined | null, digits = 2) =>
  v === undefined || v === null || !Number.isFinite(v) ? '-' : v.toFixed(digits);
const times = (v: number | null | undefined) => (v === null || v === undefined ? '-' : `${v.toFixed(2)}x`);

function scenarioTable(scenario: ScenarioName, results: readonly TargetResult[], concurrency: number): string[] {
  const spec = SCENARIO_SPECS[scenario];
  const legs = spec.legs.length;
  // The upstream's column only where a target has one (the gateway's), so other runs print as before.
  const roles = ROLES.filter(
    (role) =>
      role !== 'upstream' ||
      results.some((t) => t.scenarios.some((s) => s.scenario === scenario && s.loaded?.cpuPer100[role] !== undefined)),
  );
  const header = ['target'];
  for (let i = 1; i <= legs; i++) header.push(`leg${i} p50`, `leg${i} p99`);
  header.push(`ex/s@${concurrency}`, ...roles, 'total', 'client', 'events/ex', 'actions/ex');
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const target of results) {
    const oneProcess = TARGET_SPECS[target.target].oneProcess;
    const s = target.scenarios.find((r) => r.scenario === scenario);
    const why = target.error
      ? `not measured: ${target.error}`
      : !s
        ? 'not measured (interrupted)'
        : s.failures.length
          ? `FAILED: ${s.failures[0]}`
          : undefined;
    if (why) {
      rows.push([target.target, ...header.slice(1).map(() => '-')]);
      notes.push(`  ${target.target}: ${why.slice(0, 300)}`);
      continue;
    }
    if (!s) continue;
    const row: string[] = [target.target];
    for (let i = 0; i < legs; i++) row.push(ms(s.serial?.legs[i]?.p50), ms(s.serial?.legs[i]?.p99));
    const cpu = s.loaded?.cpuPer100 ?? {};
    row.push(num(s.loaded?.exchangesPerSec, 1));
    for (const role of roles) row.push(role === 'worker' && oneProcess ? 'in api' : num(cpu[role]));
    row.push(num(cpu.total), num(cpu.client));
    row.push(s.history?.eventsMedian === undefined ? '-' : String(s.history.eventsMedian ?? '-'));
    row.push(num(s.actions?.total));
    rows.push(row);
  }
  return [
    `${spec.label}: tools/call ${spec.tool}, ${legs} leg${legs > 1 ? 's' : ''}`,
    ...table(header, rows),
    ...notes,
  ];
}

/**
 * The report. With several runs, `results` holds each figure's median over them, and `overRuns`
 * the ratios taken within each run: the ratio table then shows their median and range.
 */
export function render(
  info: RunInfo,
  results: readonly TargetResult[],
  scenarios: readonly ScenarioName[],
  overRuns?: readonly RatioOverRuns[],
): string {
  const out: string[] = [
    `durable-mcp comparative bench, ${info.date}; nproc ${info.nproc}, ${info.cpuModel}; node ${info.node} ${info.platform}; ` +
      `load average ${info.loadAverageStart.map((l) => l.toFixed(2)).join(' ')} at start, ${info.loadAverageEnd.map((l) => l.toFixed(2)).join(' ')} at end`,
    ...(info.runs > 1
      ? [
          `${info.runs} runs, the targets interleaved and each started fresh in every run: every figure below is the ` +
            'median of the runs; each ratio the median (min-max) of the ratios taken within each run',
        ]
      : []),
    `each scenario on each target: ${info.warmup} warm-up exchanges (not counted), ${info.n} at concurrency 1 ` +
      `(leg p50/p99, ms${info.thinkMs ? `; each answer sent ${info.thinkMs} ms after its question` : ''}), ${info.nConcurrent} at concurrency ${info.concurrency} (exchanges/s, CPU s per 100 exchanges)`,
    `Temporal: a fresh \`temporal server start-dev --db-filename <new file> ` +
      `${[...DEV_SERVER_SQLITE_FLAGS, ...DEV_SERVER_DYNAMIC_CONFIG_FLAGS].join(' ')}\` ` +
      `per target, as \`npm run dev\` starts it; extra flags: ` +
      (info.temporalFlags.length ? info.temporalFlags.join(' ') : '(none)') +
      '; compose targets: a fresh docker-compose.yml run natively instead (its Temporal on its Postgres, as compose configures them)',
    'targets:',
    ...results.map(
      (t) =>
        `  ${t.target.padEnd(12)} ${TARGET_SPECS[t.target].label}` +
        (t.startupMs !== undefined ? ` (started in ${(t.startupMs / 1000).toFixed(1)} s)` : ''),
    ),
    'CPU columns: the process trees of the Temporal server, the API, the worker and Postgres (backends included),',
    "and the gateway's upstream (the SDK server it calls) where it has one;",
    '"in api": one process serves HTTP and runs the workflows (dev mode, and each baseline); total = those; client = this bench.',
    '',
  ];
  for (const scenario of scenarios) out.push(...scenarioTable(scenario, results, info.concurrency), '');

  const all: RatioOverRuns[] = overRuns
    ? [...overRuns]
    : ratios(results).map((r) => ({ median: r, min: r, max: r, runs: 1 }));
  if (all.length) {
    const maxLegs = Math.max(...all.map((r) => r.median.legP50.length));
    const header = ['scenario', 'service', 'baseline'];
    for (let i = 1; i <= maxLegs; i++) header.push(`leg${i} p50`, `leg${i} p99`);
    header.push(`ex/s@${info.concurrency}`, 'CPU/ex', 'actions/ex');
    const rows = all.map(({ median, min, max, runs }) => {
      const cell = (get: (r: Ratio) => number | null | undefined) =>
        runs > 1 && get(median) != null
          ? `${times(get(median))} (${num(get(min))}-${num(get(max))})`
          : times(get(median));
      const row: string[] = [median.scenario, median.service, median.baseline];
      for (let i = 0; i < maxLegs; i++)
        row.push(
          cell((r) => r.legP50[i]),
          cell((r) => r.legP99[i]),
        );
      row.push(
        cell((r) => r.exchangesPerSec),
        cell((r) => r.cpuPerExchange),
        cell((r) => r.actionsPerExchange),
      );
      return row;
    });
    out.push(
      'ratios, service / baseline (latency and CPU: lower is better, 1.00x is the baseline; ex/s: higher is better)',
      ...table(header, rows),
      '',
    );
  }

  const histories = results.flatMap((t) =>
    t.scenarios
      .filter((s) => s.history?.sample)
      .map((s) => ({ target: t.target, scenario: s.scenario, h: s.history! })),
  );
  if (histories.length) {
    out.push('history of one exchange per target and scenario (events by type)');
    for (const { target, scenario, h } of histories) {
      const types = Object.entries(h.sample!.byType)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([type, count]) => `${type} ${count}`)
        .join(', ');
      out.push(`  ${scenario.padEnd(6)} ${target.padEnd(12)} ${String(h.sample!.total).padStart(3)}: ${types}`);
    }
    out.push('');
  }
  out.push(...actionsByType(results));
  return out.join('\n') + '\n';
}

/** Each target's actions per exchange by type, as Temporal's own counter names them. */
function actionsByType(results: readonly TargetResult[]): string[] {
  const rows = results.flatMap((t) =>
    t.scenarios.filter((s) => s.actions).map((s) => ({ target: t.target, scenario: s.scenario, a: s.actions! })),
  );
  if (!rows.length) return [];
  return [
    "Temporal actions per exchange by type (the server's `action` counter, what Temporal Cloud bills; queries included)",
    ...rows.map(({ target, scenario, a }) => {
      const types = Object.entries(a.byType)
        .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
        .map(([type, count]) => `${type} ${num(count)}`)
        .join(', ');
      return `  ${scenario.padEnd(6)} ${target.padEnd(12)} ${num(a.total).padStart(5)}: ${types}`;
    }),
    '',
  ];
}
