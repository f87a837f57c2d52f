/**
 * Round bookkeeping for one exchange, as plain functions with no Temporal import, so the rules are
 * unit-tested in milliseconds and the workflow only wires signals, timers and activities to them.
 *
 * Delivery is at-least-once: the same answers may be signalled twice (a client retry racing its
 * first leg, two API replicas). Only the first answers to the round being waited for are taken.
 */
import type { ExchangeStatus, KeyAnswer, RoundAnswers, RoundSummary } from '../lib/exchange/types';

export interface ExchangeState {
  /** The round whose outcome was recorded last (0 before the first). */
  round: number;
  /** Asks recorded so far; the round cap counts these. */
  asks: number;
  /** Round whose ask is waiting for answers, if any. */
  awaiting?: number;
  /** Accepted answers not yet handed to the next round. */
  pending?: RoundAnswers;
  /** Keys of the last ask; a round's answers are complete when every one is in. */
  askKeys?: string[];
  /** Handshake-era answers arrive one key at a time; they gather here until the ask is complete. */
  partial?: { round: number; responses: Record<string, unknown>; sentAt?: number };
  /** The client withdrew the originating request. */
  cancelRequested?: boolean;
  /** The awaited ask's deadline (epoch ms): answers signalled after it are refused. */
  deadlineAt?: number;
  status: ExchangeStatus;
}

/** `late`: signalled after the round's deadline, so refused whatever order the activation applies it in. */
export type AnswerVerdict = 'accepted' | 'duplicate' | 'unexpected' | 'late';

/** Answers signalled after the awaited ask's deadline. Answers from before deadlines existed count as in time. */
function isLate(state: ExchangeState, sentAt: number | undefined): boolean {
  return state.deadlineAt !== undefined && sentAt !== undefined && sentAt > state.deadlineAt;
}

export function initialState(): ExchangeState {
  return { round: 0, asks: 0, status: 'running' };
}

/**
 * Takes the first answers to the awaited round. Answers may also arrive for the round whose
 * handler is still being recorded: the API signals as soon as the ask is in Postgres, which can be
 * before the workflow has seen its activity complete (and a signal is applied before an activity
 * result in the same activation). Those are held until the ask is folded in.
 */
export function acceptAnswers(state: ExchangeState, answers: RoundAnswers): AnswerVerdict {
  if (state.status !== 'running') return 'duplicate';
  const expected = state.awaiting ?? state.round + 1;
  if (answers.round !== expected) return answers.round < expected ? 'duplicate' : 'unexpected';
  if (state.pending) return 'duplicate';
  if (state.awaiting === answers.round && isLate(state, answers.sentAt)) return 'late';
  state.pending = answers;
  return 'accepted';
}

/**
 * Takes one key's answer (a handshake-era client answers each server-to-client request on its
 * own). When every key of the awaited ask is in, the round's answers become pending.
 */
export function acceptKeyAnswer(state: ExchangeState, answer: KeyAnswer): AnswerVerdict {
  if (state.status !== 'running') return 'duplicate';
  const expected = state.awaiting ?? state.round + 1;
  if (answer.round !== expected) return answer.round < expected ? 'duplicate' : 'unexpected';
  if (state.pending) return 'duplicate';
  if (state.awaiting === answer.round && isLate(state, answer.sentAt)) return 'late';
  if (state.partial?.round !== answer.round) state.partial = { round: answer.round, responses: {} };
  if (Object.hasOwn(state.partial.responses, answer.key)) return 'duplicate';
  state.partial.responses[answer.key] = answer.response;
  if (answer.sentAt !== undefined) state.partial.sentAt = Math.max(state.partial.sentAt ?? 0, answer.sentAt);
  completePartial(state);
  return 'accepted';
}

function completePartial(state: ExchangeState): void {
  const partial = state.partial;
  if (!partial || state.awaiting !== partial.round || !state.askKeys) return;
  if (!state.askKeys.every((key) => Object.hasOwn(partial.responses, key))) return;
  state.pending = {
    round: partial.round,
    responses: partial.responses,
    digest: `keys:${state.askKeys.join(',')}`,
    ...(partial.sentAt !== undefined ? { sentAt: partial.sentAt } : {}),
  };
  state.partial = undefined;
}

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
    if (state.pending && isLate(state, state.pending.sentAt)) state.pending = undefined;
    if (state.partial && isLate(state, state.partial.sentAt)) state.partial = undefined;
    completePartial(state);
    return;
  }
  state.awaiting = undefined;
  state.deadlineAt = undefined;
  state.status = summary.status ?? (summary.kind === 'complete' ? 'completed' : 'failed');
}

/** The answers that start the next round; clears the wait. */
export function takeAnswers(state: ExchangeState): RoundAnswers {
  const answers = state.pending;
  if (!answers) throw new Error('takeAnswers called with no accepted answers');
  state.pending = undefined;
  state.awaiting = undefined;
  return answers;
}
