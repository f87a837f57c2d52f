/**
 * The open-waits bench's tables, from its measurements: one row per checkpoint (open exchanges,
 * memory and disk of each process, first-leg latency), the cost per open exchange over each
 * stretch (constant when the cost is linear), the throughputs, and the targets. Pure.
 */
import { table } from './report';
import type { LatencySummary } from './stats';

export const MEMORY_ROLES = ['api', 'worker', 'temporal', 'postgres'] as const;
export type MemoryRole = (typeof MEMORY_ROLES)[number];

export interface Checkpoint {
  open: number;
  /** Bytes per role: RSS for the service's and Temporal's processes, PSS for Postgres and its backends. */
  memory: Partial<Record<MemoryRole, number>>;
  temporalDiskBytes: number;
  postgresDiskBytes: number;
  firstLeg: LatencySummary;
}

export interface OpenWaitsResult {
  checkpoints: Checkpoint[];
  /** Exchanges opened per second, per stretch between checkpoints. */
  openingRates: number[];
  answered: number;
  answersPerSec: number;
  failures: string[];
  /** The worker runs in the API's process (dev target). */
  oneProcess: boolean;
}

const MB = 1024 * 1024;
const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : (bytes / MB).toFixed(1));
const kb = (bytes: number) => (bytes / 1024).toFixed(2);
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');

/** Targets of the scale deliverable: memory at the largest open count, latency against none open. */
export function targets(result: OpenWaitsResult): Array<{ what: string; value: string; met: boolean }> {
  const first = result.checkpoints[0];
  const last = result.checkpoints.at(-1);
  if (!first || !last) return [];
  const out: Array<{ what: string; value: string; met: boolean }> = [];
  const api = last.memory.api;
  if (api !== undefined)
    out.push({
      what: `API RSS <= 300 MB at ${last.open} open${result.oneProcess ? ' (API + worker in one process)' : ''}`,
      value: `${mb(api)} MB`,
      met: api <= 300 * MB,
    });
  const worker = last.memory.worker;
  if (worker !== undefined)
    out.push({ what: `worker RSS <= 1 GB at ${last.open} open`, value: `${mb(worker)} MB`, met: worker <= 1024 * MB });
  const ratio = last.firstLeg.p50 / first.firstLeg.p50;
  out.push({
    what: `first-leg p50 at ${last.open} open <= 1.5x at ${first.open}`,
    value: `${ratio.toFixed(2)}x`,
    met: ratio <= 1.5,
  });
  return out;
}

export function renderOpenWaits(result: OpenWaitsResult): string {
  const roles = MEMORY_ROLES.filter((role) => result.checkpoints.some((c) => c.memory[role] !== undefined));
  const memoryHeader = roles.map((role) => `${role} MB`);
  const lines: string[] = [];
  lines.push('open exchanges waiting on a person: memory (RSS; Postgres PSS), disk, first-leg latency (ms)');
  lines.push(
    ...table(
      ['open', ...memoryHeader, 'temporal disk MB', 'postgres disk MB', 'leg1 p50', 'leg1 p99'],
      result.checkpoints.map((c) => [
        String(c.open),
        ...roles.map((role) => mb(c.memory[role])),
        mb(c.temporalDiskBytes),
        mb(c.postgresDiskBytes),
        ms(c.firstLeg.p50),
        ms(c.firstLeg.p99),
      ]),
    ),
  );
  lines.push('');
  lines.push('cost per open exchange, KB, per stretch (the same on every stretch when it grows linearly)');
  const stretches = result.checkpoints.slice(1).map((c, i) => [result.checkpoints[i]!, c] as const);
  lines.push(
    ...table(
      ['stretch', ...roles.map((role) => `${role}`), 'temporal disk', 'postgres disk', 'opened/s'],
      stretches.map(([a, b], i) => {
        const per = (x: number | undefined, y: number | undefined) =>
          x === undefined || y === undefined ? '-' : kb((y - x) / (b.open - a.open));
        return [
          `${a.open}..${b.open}`,
          ...roles.map((role) => per(a.memory[role], b.memory[role])),
          per(a.temporalDiskBytes, b.temporalDiskBytes),
          per(a.postgresDiskBytes, b.postgresDiskBytes),
          (result.openingRates[i] ?? Number.NaN).toFixed(1),
        ];
      }),
    ),
  );
  lines.push('');
  lines.push(`answered ${result.answered} open exchanges at ${result.answersPerSec.toFixed(1)} answers/s`);
  for (const t of targets(result)) lines.push(`${t.met ? 'met ' : 'MISS'}  ${t.what}: ${t.value}`);
  for (const f of result.failures.slice(0, 5)) lines.push(`FAILED ${f}`);
  return `${lines.join('\n')}\n`;
}
