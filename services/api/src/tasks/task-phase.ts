/**
 * Where a task stands, as a pure function of what Postgres holds, whichever wire reports it: its
 * last round an ask with keys still unanswered (and its exchange running) is waiting for input on
 * those keys; a result or an error ends it (a cancel's error as cancelled); anything else, before
 * its first round or while its next one runs, is working. Each wire names the phases its own way
 * (task-view.ts for 2026-07-28, legacy/legacy-task-view.ts for 2025-11-25).
 */
import type { TaskSnapshot } from '../../../../lib/db/task-store';
import type { OutcomeError } from '../../../../lib/exchange/types';
import { EXCHANGE_CANCELLED } from '../../../../lib/protocol/exchange-errors';
import { addressingOf, isAddressedAsk } from '../../../../lib/questions/addressing';
import { callerPageOf } from '../../../../lib/questions/caller-url';
import { waitingMessage } from '../../../../lib/questions/waiting-message';

export type TaskPhase =
  /** `waitingOn`: who the task waits for, while its questions are addressed to someone else. */
  | { kind: 'working'; waitingOn?: string }
  | { kind: 'input_required'; outstanding: Record<string, unknown> }
  | { kind: 'complete'; result: Record<string, unknown> }
  | { kind: 'cancelled'; error: OutcomeError }
  | { kind: 'failed'; error: OutcomeError };

/**
 * The keys of an ask that are still outstanding for the caller: asked of it, and not answered yet.
 * A question addressed to someone else is never the caller's to answer.
 */
export function outstandingRequests(
  inputRequests: Record<string, unknown>,
  answeredKeys: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(inputRequests).filter(
      ([key, request]) => !answeredKeys.includes(key) && addressingOf(request) === undefined,
    ),
  );
}

/** `answeredKeys`: keys of the last ask answered beyond those the snapshot records (the legacy era's responses). */
/** `questionPageUrl`: a question's page, when the answer page is on (the caller's own question is named by it). */
export function taskPhase(
  snapshot: TaskSnapshot,
  answeredKeys: readonly string[] = [],
  questionPageUrl?: (questionId: string) => string,
): TaskPhase {
  const outcome = snapshot.lastRound?.outcome;
  if (!outcome) return { kind: 'working' };
  switch (outcome.kind) {
    case 'ask': {
      const round = snapshot.lastRound!;
      if (isAddressedAsk(outcome.inputRequests) && snapshot.exchangeStatus === 'running') {
        const page = callerPageOf(round.exchangeId, round.round, outcome.inputRequests, questionPageUrl);
        return { kind: 'working', waitingOn: waitingMessage(outcome.inputRequests, round.deadlineAt?.getTime(), page) };
      }
      const outstanding = outstandingRequests(outcome.inputRequests, [...snapshot.answeredKeys, ...answeredKeys]);
      // Every key answered: the next round is on its way.
      if (Object.keys(outstanding).length === 0 || snapshot.exchangeStatus !== 'running') return { kind: 'working' };
      return { kind: 'input_required', outstanding };
    }
    case 'complete':
      return { kind: 'complete', result: outcome.result };
    case 'error':
      return { kind: outcome.error.code === EXCHANGE_CANCELLED ? 'cancelled' : 'failed', error: outcome.error };
  }
}
