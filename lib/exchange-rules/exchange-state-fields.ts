/**
 * The state an exchange's workflow keeps of its rounds, and where it starts. The rules that move
 * it are answer-taking.ts (answers in) and round-folding.ts (recorded rounds in); exchange-state.ts
 * is their one face for the workflow, the harness and the tests.
 */
import { isLate } from './round-deadline';
import type { ExchangeStatus, KeyAnswer, RoundAnswers } from '../exchange/types';
import type { QuestionAnswer } from '../questions/question';
import type { QuestionsState } from './question-state';

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
  /** Legacy answers arrive one key at a time; they gather here until the ask is complete. */
  partial?: { round: number; responses: Record<string, unknown>; sentAt?: number };
  /** The client withdrew the originating request. */
  cancelRequested?: boolean;
  /** The awaited ask's deadline (epoch ms): answers signalled after it are refused. */
  deadlineAt?: number;
  /** Answers to rounds past the one whose answers are taken next, in arrival order, until their ask is folded in. */
  ahead?: Array<RoundAnswers | KeyAnswer>;
  /** The awaited ask's questions addressed to someone other than the caller (question-state.ts). */
  questions?: QuestionsState;
  /** Answers to questions of a round the workflow has not yet seen ask. */
  questionsAhead?: QuestionAnswer[];
  /** The caller's principal key: a question that excludes the caller refuses its answers. */
  callerId?: string;
  /** The key of the person behind the caller (lib/questions/question.ts `QuestionCaller`), when the exchange recorded it. */
  callerPersonId?: string;
  /** Why the caller cannot be matched with a person (`QuestionCaller.unmatched`), when it cannot. */
  callerUnmatched?: string;
  status: ExchangeStatus;
}

/**
 * `late`: signalled after the round's deadline, so refused whatever order the activation applies it in.
 * `held`: for a round the workflow has not yet seen ask; applied (or refused) once it has.
 */
export type AnswerVerdict = 'accepted' | 'held' | 'duplicate' | 'unexpected' | 'late';

/**
 * Answers signalled after the awaited ask's deadline. The workflow is the authority on the deadline
 * rule (lib/exchange/round-deadline.ts); answers from before deadlines existed count as in time.
 */
export function signalledLate(state: ExchangeState, sentAt: number | undefined): boolean {
  return isLate(state.deadlineAt, sentAt);
}

export function initialState(callerId?: string, callerPersonId?: string, callerUnmatched?: string): ExchangeState {
  return {
    round: 0,
    asks: 0,
    status: 'running',
    ...(callerId !== undefined ? { callerId } : {}),
    ...(callerPersonId !== undefined ? { callerPersonId } : {}),
    ...(callerUnmatched !== undefined ? { callerUnmatched } : {}),
  };
}

/** The round whose answers are taken next: the awaited one, or the one running (its ask may be on its way). */
export function expectedRound(state: ExchangeState): number {
  return state.awaiting ?? state.round + 1;
}
