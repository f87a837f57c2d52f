/**
 * What the API processes say they did, from their log files. An API logs `answers signalled`
 * (2026-07-28), `answer signalled` (a legacy response) or `task answers signalled`
 * (`tasks/update`) once Temporal accepted the signal: from then on the answer is durable, even
 * while Temporal still buffers it behind a workflow task in flight (and so not yet in the history).
 */
import type { FaultStack } from './fault-stack';
import { readLog } from './os-process';
import { waitFor } from './wait-for';

export type SignalLine = 'answers signalled' | 'answer signalled' | 'task answers signalled';

/** How many `msg` lines both API processes logged for this exchange's round `round`. */
export function apiSignals(stack: FaultStack, msg: SignalLine, exchangeId: string, round: number): number {
  return [stack.apiLogFile(0), stack.apiLogFile(1)]
    .flatMap((file) => readLog(file).split('\n'))
    .filter((line) => {
      if (!line.includes(`"msg":"${msg}"`) || !line.includes(exchangeId)) return false;
      const entry = JSON.parse(line) as { exchangeId?: string; round?: number };
      return entry.exchangeId === exchangeId && entry.round === round;
    }).length;
}

/** Waits (briefly: the window is open meanwhile) until an API logged a signal for the round. */
export const signalAccepted = (stack: FaultStack, msg: SignalLine, exchangeId: string, round: number) =>
  waitFor(`an API to log "${msg}" for round ${round}`, () => apiSignals(stack, msg, exchangeId, round) > 0, {
    timeoutMs: 5_000,
    intervalMs: 25,
  });
