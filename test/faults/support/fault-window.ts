/**
 * A paused fault worker's `fault window open` line (support/fault-pause.ts): which exchange, round
 * and activity it holds, and since when. A scenario waits for it before it acts inside the window.
 */
import { readLog, waitForLog, type OsProcess } from './os-process';

export interface FaultWindow {
  exchangeId: string;
  round: number;
  activity: string;
  local: boolean;
  outcome?: string;
  /** Whether the round ran as a first start the workflow vouched for (no look for its record, no start counted). */
  firstStart?: boolean;
  /** When the worker opened it (its log line's time, epoch ms). */
  openedAt: number;
}

export async function waitForWindow(proc: OsProcess, timeoutMs = 60_000): Promise<FaultWindow> {
  await waitForLog(proc, /"msg":"fault window open"/, timeoutMs);
  const line = readLog(proc.logFile)
    .split('\n')
    .find((text) => text.includes('"msg":"fault window open"'))!;
  const entry = JSON.parse(line) as Omit<FaultWindow, 'openedAt'> & { time: string };
  return {
    exchangeId: entry.exchangeId,
    round: entry.round,
    activity: entry.activity,
    local: entry.local,
    ...(entry.outcome ? { outcome: entry.outcome } : {}),
    ...(entry.firstStart !== undefined ? { firstStart: entry.firstStart } : {}),
    openedAt: Date.parse(entry.time),
  };
}

/**
 * A workflow task whose local activity runs past 80% of its 10 s timeout is heartbeated by the
 * SDK (completed with a request for a new one), which closes a local round's window: whatever the
 * scenario does inside it must be done well before that.
 */
export const LOCAL_WINDOW_MS = 7_000;
