/**
 * How the soak's results are printed: exchanges by kind and outcome (the clients' view and
 * Postgres's), answers accepted against applied (with a MISMATCH line when they differ), what is
 * still open after the drain, the row counts, the kills and each process's memory. Pure: it
 * formats what it is given.
 */
import type { LegTrace } from '../test/faults/support/modern-exchange';
import { table } from './report';
import type { ChaosEvent } from './soak-chaos';
import { CLIENT_ENDS, type ClientEnd, type Reconciliation } from './soak-ledger';
import type { MemoryRow } from './soak-memory';
import { SOAK_KINDS, type SoakKind, type SoakOptions } from './soak-options';
import type { OpenRecords, RunningExchange, StatusCount } from './soak-readings';
import { percentile } from './stats';

export interface SoakResult {
  header: string[];
  options: SoakOptions;
  /** Seconds the load ran, and the drain after it (to the readings). */
  loadSeconds: number;
  drainSeconds: number;
  /** Exchanges whose clients were still at work when the drain ended. */
  inFlightAfterDrain: number;
  started: Record<SoakKind, number>;
  clientEnds: Record<SoakKind, Record<ClientEnd, number>>;
  statuses: StatusCount[];
  answers: Reconciliation;
  running: Array<RunningExchange & { why: string }>;
  open: OpenRecords & { sessionsTheClientEnded: number };
  gauges: Array<{ api: string; gauges: Record<string, number> }>;
  rows: { start: Record<string, number>; end: Record<string, number> };
  chaos: ChaosEvent[];
  memory: MemoryRow[];
  trace: LegTrace;
  /** Legacy calls sent again under their request id after their stream broke or went quiet. */
  reattaches: number;
  problems: string[];
}

const STATUSES = ['completed', 'failed', 'expired', 'capped', 'cancelled', 'terminated', 'running'];
const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The accepted-versus-applied verdict, MISMATCH lines first when they differ. */
export function answerLines(a: Reconciliation): string[] {
  const lines = [
    `answers accepted ${a.accepted} (distinct exchange and round, acknowledged to a client), applied ${a.applied} (rounds that ran on them, in Postgres): ${a.equal ? 'equal' : 'MISMATCH'}`,
    `  in doubt (sent, never acknowledged to the client): ${a.inDoubt}, of which applied ${a.inDoubtApplied}`,
  ];
  const list = (keys: string[]) => keys.slice(0, 10).join(', ') + (keys.length > 10 ? ', ...' : '');
  if (a.lost.length) lines.push(`MISMATCH: ${a.lost.length} accepted answer(s) never applied: ${list(a.lost)}`);
  if (a.unexplained.length)
    lines.push(`MISMATCH: ${a.unexplained.length} round(s) applied answers no client sent: ${list(a.unexplained)}`);
  return lines;
}

function exchangeTable(r: SoakResult): string[] {
  const statuses = STATUSES.filter(
    (s) => s === 'completed' || s === 'running' || r.statuses.some((c) => c.status === s && c.count > 0),
  );
  const header = ['kind', 'started', ...CLIENT_ENDS, 'in Postgres', ...statuses];
  const rowOf = (kind: SoakKind | 'all') => {
    const kinds = kind === 'all' ? [...SOAK_KINDS] : [kind];
    const pg = r.statuses.filter((c) => kinds.includes(c.kind));
    return [
      kind,
      String(sum(kinds.map((k) => r.started[k]))),
      ...CLIENT_ENDS.map((end) => String(sum(kinds.map((k) => r.clientEnds[k][end])))),
      String(sum(pg.map((c) => c.count))),
      ...statuses.map((s) => String(sum(pg.filter((c) => c.status === s).map((c) => c.count)))),
    ];
  };
  return [
    'exchanges: started and ended, by their clients (left) and by Postgres exchanges.status (right)',
    ...table(header, [...SOAK_KINDS.map(rowOf), rowOf('all')]),
  ];
}

function leakLines(r: SoakResult): string[] {
  const o = r.open;
  const rows = [
    ['exchanges still running', String(r.running.length), 'exchanges.status'],
    [
      'legacy sessions not ended',
      String(o.openSessions.length),
      `${o.sessionsTheClientEnded} of them ended by a DELETE the service acknowledged`,
    ],
    ['legacy calls unfinished', String(o.unfinishedCalls), 'legacy_calls.finished_at'],
    ['legacy requests open', String(o.openRequests), 'server-to-client requests, legacy_open_requests'],
    ['questions waiting', String(o.waitingQuestions), 'questions.status'],
    ['question answers unsignalled', String(o.unsignalledAnswers), 'claimed, their signal never confirmed'],
  ];
  const gauges = Object.keys(r.gauges[0]?.gauges ?? {});
  return [
    'still open after the drain',
    ...table(['what', 'count', 'read from'], rows),
    '',
    'API gauges at the end (GET /metrics of each API that is up)',
    ...table(
      ['api', ...gauges],
      r.gauges.map((g) => [g.api, ...gauges.map((name) => String(g.gauges[name]))]),
    ),
  ];
}

function runningLines(r: SoakResult): string[] {
  if (r.running.length === 0) return [];
  const rows = r.running
    .slice(0, 20)
    .map((e) => [e.id, e.kind, e.target, String(e.rounds), e.lastOutcome ?? '-', String(e.idleS), e.why]);
  return [
    '',
    `exchanges still running after the drain (${r.running.length}${r.running.length > 20 ? ', the first 20' : ''})`,
    ...table(['exchange', 'kind', 'target', 'rounds', 'last', 'idle s', 'why'], rows),
  ];
}

function rowLines(r: SoakResult): string[] {
  const names = [...new Set([...Object.keys(r.rows.start), ...Object.keys(r.rows.end)])].sort();
  return [
    'Postgres rows per table, at the start of the load and after the drain',
    ...table(
      ['table', 'start', 'end', 'growth'],
      names.map((n) => {
        const [start, end] = [r.rows.start[n] ?? 0, r.rows.end[n] ?? 0];
        return [n, String(start), String(end), String(end - start)];
      }),
    ),
  ];
}

function chaosLines(r: SoakResult): string[] {
  const targets = [...new Set(r.chaos.map((e) => e.target))].sort();
  const rows = targets.map((target) => {
    const events = r.chaos.filter((e) => e.target === target);
    const restarts = events.flatMap((e) => (e.restartMs === undefined ? [] : [e.restartMs])).sort((a, b) => a - b);
    const never = events.filter((e) => e.restartMs === undefined).length;
    const median = restarts.length ? (percentile(restarts, 50) / 1000).toFixed(1) : '-';
    const max = restarts.length ? (restarts[restarts.length - 1]! / 1000).toFixed(1) : '-';
    const at = events.map((e) => e.atS.toFixed(0)).join(' ');
    return [target, String(events.length), median, max, String(never), at];
  });
  return [
    `kills (SIGKILL; mean ${r.options.killEverySeconds} s apart per loop, down ${r.options.downSeconds} s, seed ${r.options.seed})`,
    ...(rows.length
      ? table(['process', 'kills', 'restart p50 s', 'restart max s', 'never back', 'at s'], rows)
      : ['  none']),
  ];
}

function memoryLines(r: SoakResult): string[] {
  return [
    `memory (MB; RSS of each process tree every ${r.options.sampleSeconds} s, Postgres as PSS; gen: restart generation)`,
    ...table(
      ['process', 'gen', 'pid', 'samples', 'from s', 'to s', 'start', 'median', 'max', 'end'],
      r.memory.map((m) => [
        m.process,
        String(m.generation),
        String(m.pid),
        String(m.samples),
        m.fromS.toFixed(0),
        m.toS.toFixed(0),
        mb(m.startBytes),
        mb(m.medianBytes),
        mb(m.maxBytes),
        mb(m.endBytes),
      ]),
    ),
  ];
}

export function renderSoak(r: SoakResult): string {
  const t = r.trace;
  const lines = [
    ...r.header,
    `load ${r.loadSeconds.toFixed(0)} s, drain ${r.drainSeconds.toFixed(0)} s (${r.inFlightAfterDrain} exchange(s) still with their clients after it); 2026-07-28 tools/call legs ${t.legs}, state-only results ${t.stateOnly}, requests sent again after a connection error ${t.connectionErrors}, legacy calls re-attached after a broken or silent stream ${r.reattaches}`,
    '',
    ...exchangeTable(r),
    ...runningLines(r),
    '',
    ...answerLines(r.answers),
    '',
    ...leakLines(r),
    '',
    ...rowLines(r),
    '',
    ...chaosLines(r),
    '',
    ...memoryLines(r),
    ...(r.problems.length
      ? ['', 'client problems (the first 10)', ...r.problems.slice(0, 10).map((p) => `  ${p}`)]
      : []),
  ];
  return `${lines.join('\n')}\n`;
}
