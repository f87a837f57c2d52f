/**
 * What the worker logs say about handler executions. The worker logs, as pino JSON lines,
 * `round started` (exchangeId, round) before each handler execution and `round recorded` after
 * recording it; a retried activity that finds its round recorded logs `round already recorded`
 * and does not run the handler. So a `round started` after that round's `round recorded` is a
 * handler that ran twice.
 */
import { readLog } from './os-process';

export interface RoundEvent {
  msg: 'round started' | 'round recorded' | 'round already recorded';
  exchangeId: string;
  round: number;
  /** Which worker process (its log file) and its order there. */
  file: number;
  line: number;
  time: number;
}

const TRACKED = new Set(['round started', 'round recorded', 'round already recorded']);

/** Round events of every worker log, in the order they happened (workers started later come later on ties). */
export function roundEvents(workerLogs: string[]): RoundEvent[] {
  const events: RoundEvent[] = [];
  workerLogs.forEach((file, fileIndex) => {
    readLog(file)
      .split('\n')
      .forEach((text, line) => {
        if (!text.startsWith('{')) return;
        let entry: { msg?: string; exchangeId?: string; round?: number; time?: string };
        try {
          entry = JSON.parse(text);
        } catch {
          return; // a line cut short by SIGKILL
        }
        if (!entry.msg || !TRACKED.has(entry.msg) || !entry.exchangeId || typeof entry.round !== 'number') return;
        events.push({
          msg: entry.msg as RoundEvent['msg'],
          exchangeId: entry.exchangeId,
          round: entry.round,
          file: fileIndex,
          line,
          time: Date.parse(entry.time ?? ''),
        });
      });
  });
  return events.sort((a, b) => a.time - b.time || a.file - b.file || a.line - b.line);
}

const key = (e: { exchangeId: string; round: number }) => `${e.exchangeId}#${e.round}`;

/** Rounds whose handler started again after the round was recorded: `exchangeId#round` → how often. */
export function rerunsAfterRecording(events: RoundEvent[]): Record<string, number> {
  const recorded = new Set<string>();
  const reruns: Record<string, number> = {};
  for (const event of events) {
    const k = key(event);
    if (event.msg === 'round recorded') recorded.add(k);
    if (event.msg === 'round started' && recorded.has(k)) reruns[k] = (reruns[k] ?? 0) + 1;
  }
  return reruns;
}

export function countOf(events: RoundEvent[], msg: RoundEvent['msg'], exchangeId: string, round: number): number {
  return events.filter((e) => e.msg === msg && e.exchangeId === exchangeId && e.round === round).length;
}

/** Recorded rounds (per Postgres) for which no worker logged `round started`: the log contract is missing. */
export function roundsWithoutStart(
  events: RoundEvent[],
  recorded: Array<{ exchangeId: string; round: number }>,
): string[] {
  const started = new Set(events.filter((e) => e.msg === 'round started').map(key));
  return recorded.map(key).filter((k) => !started.has(k));
}
