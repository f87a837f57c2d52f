/**
 * The soak's results as the one-line JSON summary a run writes after its report (rounded figures,
 * the verdict, the exit code), for comparing runs. Pure.
 */
import type { SoakResult } from './soak-report';
import { round } from './stats';

export function soakSummaryJson(r: SoakResult, exitCode: number): string {
  const mb = (bytes: number) => round(bytes / 1048576, 1);
  return (
    JSON.stringify({
      bench: 'soak',
      date: new Date().toISOString(),
      options: r.options,
      exitCode,
      loadSeconds: round(r.loadSeconds),
      drainSeconds: round(r.drainSeconds),
      inFlightAfterDrain: r.inFlightAfterDrain,
      started: r.started,
      clientEnds: r.clientEnds,
      statuses: r.statuses,
      answers: {
        accepted: r.answers.accepted,
        applied: r.answers.applied,
        inDoubt: r.answers.inDoubt,
        inDoubtApplied: r.answers.inDoubtApplied,
        lost: r.answers.lost,
        unexplained: r.answers.unexplained,
        equal: r.answers.equal,
      },
      stillRunning: r.running.map((e) => ({ id: e.id, kind: e.kind, why: e.why })),
      open: { ...r.open, openSessions: r.open.openSessions.length },
      gauges: r.gauges,
      rows: r.rows,
      kills: r.chaos.map((e) => ({
        atS: round(e.atS),
        target: e.target,
        restartMs: e.restartMs ?? null,
        ...(e.errors.length ? { errors: e.errors } : {}),
      })),
      memoryMb: r.memory.map((m) => ({
        process: m.process,
        generation: m.generation,
        samples: m.samples,
        start: mb(m.startBytes),
        median: mb(m.medianBytes),
        max: mb(m.maxBytes),
        end: mb(m.endBytes),
      })),
      trace: { ...r.trace, reattaches: r.reattaches },
    }) + '\n'
  );
}
