/**
 * The open-waits curve as an SVG image, from the checkpoints of one `npm run bench:open-waits`
 * run: on the left, each process's memory and Temporal's and Postgres's disk (MB) against the
 * exchanges open; on the right, the first leg's p50 and p99 (ms). Linear axes from 0, so a flat
 * line is flat memory and a straight one linear growth. Pure: the command that writes it from a
 * run's output is bench/open-waits-plot-main.ts.
 */
import type { Checkpoint } from './open-waits-report';

interface Series {
  label: string;
  colour: string;
  dashed?: boolean;
  points: Array<[number, number]>;
}

const MB = 1024 * 1024;
const WIDTH = 460;
const HEIGHT = 300;
const MARGIN = { left: 56, right: 12, top: 28, bottom: 44 };
const LEGEND_HEIGHT = 64;

/** A round step for an axis reaching `max`, so it has 4 to 8 ticks. */
export function tickStep(max: number): number {
  if (max <= 0) return 1;
  const rough = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => max / s <= 8)!;
  return step;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
const count = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

/** One panel: axes, grid, ticks and a polyline per series, at (`x0`, 0). */
function panel(x0: number, title: string, unit: string, series: Series[]): string {
  const all = series.flatMap((s) => s.points);
  const xStep = tickStep(Math.max(...all.map(([x]) => x), 1));
  const yStep = tickStep(Math.max(...all.map(([, y]) => y), 1));
  const xMax = Math.ceil(Math.max(...all.map(([x]) => x), 1) / xStep) * xStep;
  const yMax = Math.ceil(Math.max(...all.map(([, y]) => y), 1) / yStep) * yStep;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const sx = (x: number) => x0 + MARGIN.left + (x / xMax) * plotW;
  const sy = (y: number) => MARGIN.top + plotH - (y / yMax) * plotH;
  const parts: string[] = [
    `<text x="${x0 + WIDTH / 2}" y="16" text-anchor="middle" font-weight="bold">${escape(title)}</text>`,
  ];
  for (let y = 0; y <= yMax + 1e-9; y += yStep) {
    parts.push(
      `<line x1="${sx(0)}" x2="${sx(xMax)}" y1="${sy(y)}" y2="${sy(y)}" stroke="#ddd"/>`,
      `<text x="${sx(0) - 4}" y="${sy(y) + 4}" text-anchor="end">${Number(y.toFixed(2))}</text>`,
    );
  }
  for (let x = 0; x <= xMax + 1e-9; x += xStep) {
    parts.push(
      `<line x1="${sx(x)}" x2="${sx(x)}" y1="${sy(0)}" y2="${sy(0) + 4}" stroke="#333"/>`,
      `<text x="${sx(x)}" y="${sy(0) + 16}" text-anchor="middle">${count(x)}</text>`,
    );
  }
  parts.push(
    `<line x1="${sx(0)}" x2="${sx(xMax)}" y1="${sy(0)}" y2="${sy(0)}" stroke="#333"/>`,
    `<line x1="${sx(0)}" x2="${sx(0)}" y1="${sy(0)}" y2="${sy(yMax)}" stroke="#333"/>`,
    `<text x="${x0 + MARGIN.left + plotW / 2}" y="${HEIGHT - 8}" text-anchor="middle">exchanges open</text>`,
    `<text x="${x0 + 14}" y="${MARGIN.top + plotH / 2}" text-anchor="middle" transform="rotate(-90 ${x0 + 14} ${MARGIN.top + plotH / 2})">${escape(unit)}</text>`,
  );
  for (const s of series) {
    const points = s.points.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ');
    parts.push(
      `<polyline fill="none" stroke="${s.colour}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''} points="${points}"/>`,
      ...s.points.map(
        ([x, y]) => `<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="2.5" fill="${s.colour}"/>`,
      ),
    );
  }
  parts.push(legend(x0 + MARGIN.left, HEIGHT + 4, series));
  return parts.join('\n');
}

function legend(x: number, y: number, series: Series[]): string {
  return series
    .map((s, i) => {
      const cx = x + (i % 2) * 200;
      const cy = y + Math.floor(i / 2) * 18 + 10;
      return [
        `<line x1="${cx}" x2="${cx + 24}" y1="${cy}" y2="${cy}" stroke="${s.colour}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
        `<text x="${cx + 30}" y="${cy + 4}">${escape(s.label)}</text>`,
      ].join('\n');
    })
    .join('\n');
}

/** The whole image: memory and disk, then latency. `title` goes above both. */
export function renderOpenWaitsPlot(checkpoints: readonly Checkpoint[], title: string): string {
  const of = (pick: (c: Checkpoint) => number | undefined): Array<[number, number]> =>
    checkpoints.flatMap((c) => {
      const value = pick(c);
      return value === undefined ? [] : [[c.open, value] as [number, number]];
    });
  const mbOf = (bytes: number | undefined) => (bytes === undefined ? undefined : bytes / MB);
  const memory: Series[] = [
    { label: 'API RSS', colour: '#d62728', points: of((c) => mbOf(c.memory.api)) },
    { label: 'worker RSS', colour: '#1f77b4', points: of((c) => mbOf(c.memory.worker)) },
    { label: 'Temporal RSS', colour: '#2ca02c', points: of((c) => mbOf(c.memory.temporal)) },
    { label: 'Postgres PSS', colour: '#9467bd', points: of((c) => mbOf(c.memory.postgres)) },
    { label: 'Temporal disk', colour: '#2ca02c', dashed: true, points: of((c) => mbOf(c.temporalDiskBytes)) },
    { label: 'Postgres disk', colour: '#9467bd', dashed: true, points: of((c) => mbOf(c.postgresDiskBytes)) },
  ].filter((s) => s.points.length > 0);
  const latency: Series[] = [
    { label: 'first leg p50', colour: '#ff7f0e', points: of((c) => c.firstLeg.p50) },
    { label: 'first leg p99', colour: '#8c564b', dashed: true, points: of((c) => c.firstLeg.p99) },
  ];
  const height = HEIGHT + LEGEND_HEIGHT + 24;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${2 * WIDTH}" height="${height}" viewBox="0 0 ${2 * WIDTH} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<g transform="translate(0 20)">`,
    panel(0, 'memory and disk', 'MB', memory),
    panel(WIDTH, 'first-leg latency, one at a time', 'ms', latency),
    `</g>`,
    `<text x="${WIDTH}" y="14" text-anchor="middle" font-size="12">${escape(title)}</text>`,
    `</svg>`,
    '',
  ].join('\n');
}
