/**
 * How an exchange's workflow folds in what its rounds recorded (exchange-state.ts): an ask makes
 * it wait (with its deadline, its keys and its questions) and applies the answers held for it, an
 * ending ends it; the round cap and a client's cancel are read here too. Pure, as the workflow
 * needs it.
 */
import type { RoundSummary } from '../exchange/types';
import { applyHeld, acceptQuestion, completePartial } from './answer-taking';
import { signalledLate, type ExchangeState } from './exchange-state-fields';
import { foldQuestions } from './question-state';

export function requestCancel(state: ExchangeState): void {
  if (state.status === 'running') state.cancelRequested = true;
}

/** Whether the handler may still ask: the cap counts asks, so the (maxRounds + 1)th is refused. */
export function mayAsk(state: ExchangeState, maxRounds: number): boolean {
  return state.asks < maxRounds;
}

/** Folds a recorded round outcome into the state. */
export function recordRound(state: ExchangeState, summary: RoundSummary): void {
  state.round = summary.round;
  if (state.pending && (summary.kind !== 'ask' || state.pending.round !== summary.round)) state.pending = undefined;
  if (state.partial && (summary.kind !== 'ask' || state.partial.round !== summary.round)) state.partial = undefined;
  if (summary.kind === 'ask') {
    state.asks += 1;
    state.awaiting = summary.round;
    state.askKeys = summary.askKeys ?? [];
    state.deadlineAt = summary.deadlineAt;
    // Answers held while the ask was being recorded may have been signalled after its deadline.
    if (state.pending && signalledLate(state, state.pending.sentAt)) state.pending = undefined;
    if (state.partial && signalledLate(state, state.partial.sentAt)) state.partial = undefined;
    // Key answers held before the ask was known count only for the keys it asked.
    if (state.partial?.round === summary.round) {
      const asked = state.askKeys;
      state.partial.responses = Object.fromEntries(
        Object.entries(state.partial.responses).filter(([key]) => asked.includes(key)),
      );
    }
    // An ask addressed to someone else takes no answer but its questions': whatever a client sent
    // for it before it was known is dropped, and the answers held for its questions are applied.
    if (summary.questions) {
      if (state.pending?.round === summary.round) state.pending = undefined;
      if (state.partial?.round === summary.round) state.partial = undefined;
      state.ahead = state.ahead?.filter((held) => held.round !== summary.round);
      foldQuestions(state, summary, (answer) => acceptQuestion(state, answer));
      return;
    }
    foldQuestions(state, summary, () => undefined);
    completePartial(state);
    applyHeld(state, summary.round);
    return;
  }
  foldQuestions(state, summary, () => undefined);
  state.ahead = undefined;
  state.awaiting = undefined;
  state.deadlineAt = undefined;
  state.status = summary.status ?? (summary.kind === 'complete' ? 'completed' : 'failed');
}
