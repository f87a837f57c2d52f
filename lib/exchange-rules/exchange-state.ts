/**
 * Round bookkeeping for one exchange, as plain functions with no Temporal import, so the rules are
 * unit-tested in milliseconds and the workflow only wires signals, timers and activities to them.
 *
 * Delivery is at-least-once: the same answers may be signalled twice (a client retry racing its
 * first leg, two API replicas). Only the first answers to the round being waited for are taken.
 *
 * Answers can also reach the workflow before, in its own view, their round has asked. A round run
 * as a local activity records its ask (and the client sees it) inside the workflow task that runs
 * it; if the worker dies before that task completes, the client's answers are in history before
 * the round's result, and the retried task applies them together with the previous round's
 * answers, in one activation. Such answers are held (`ahead`, answers-ahead.ts) and applied once
 * their round's ask is folded in, by the same rules as any other: never dropped for arriving early.
 */
import { deliveryTo } from './answer-repeats';
import { isLate } from './round-deadline';
import type { ExchangeStatus, KeyAnswer, RoundAnswers, RoundSummary } from '../exchange/types';
import type { QuestionAnswer } from '../questions/question';
import { holdAhead, isKeyAnswer, releaseHeld, sameDelivery, type AheadPolicy } from './answers-ahead';
import {
  acceptQuestionAnswer,
  answeredByOf,
  foldQuestions,
  type QuestionsState,
  type QuestionVerdict,
} from './question-state';

// The held-answers policy is part of this module's API for the workflow and its tests.
export type { AheadPolicy } from './answers-ahead';

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
function signalledLate(state: ExchangeState, sentAt: number | undefined): boolean {
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

/**
 * Takes one answer to an addressed question (question-state.ts); a question it decides is its
 * key's answer, taken as a legacy client's one-key answer is.
 */
export function acceptQuestion(state: ExchangeState, answer: QuestionAnswer): QuestionVerdict {
  const caller = {
    id: state.callerId ?? '',
    ...(state.callerPersonId !== undefined ? { personId: state.callerPersonId } : {}),
    ...(state.callerUnmatched !== undefined ? { unmatched: state.callerUnmatched } : {}),
  };
  return acceptQuestionAnswer(state, answer, caller, (decided, response) =>
    acceptKeyAnswer(
      state,
      { round: decided.round, key: decided.key, response, sentAt: decided.sentAt },
      undefined,
      true,
    ),
  );
}

/** Whether the awaited ask of `round` is addressed to someone other than the caller. */
const asksSomeoneElse = (state: ExchangeState, round: number): boolean =>
  state.awaiting === round && state.questions?.round === round;

/**
 * Takes the first answers to the awaited round. Answers may also arrive for the round whose
 * handler is still being recorded: the API signals as soon as the ask is in Postgres, which can be
 * before the workflow has seen its activity complete (and a signal is applied before an activity
 * result in the same activation). Those are held until the ask is folded in.
 */
export function acceptAnswers(state: ExchangeState, answers: RoundAnswers, ahead?: AheadPolicy): AnswerVerdict {
  if (state.status !== 'running') return 'duplicate';
  // The duplicate rule (lib/exchange/answer-repeats.ts), of which the workflow is the authority.
  const delivery = deliveryTo(answers.round, expectedRound(state), state.pending !== undefined);
  if (delivery === 'ahead') return holdAhead(state, answers, ahead);
  if (delivery === 'repeat') return 'duplicate';
  // Questions addressed to someone else are answered through the answer page or API only.
  if (asksSomeoneElse(state, answers.round)) return 'unexpected';
  if (state.awaiting === answers.round && signalledLate(state, answers.sentAt)) return 'late';
  state.pending = answers;
  return 'accepted';
}

/**
 * Takes one key's answer (a legacy client answers each server-to-client request on its
 * own). When every key of the awaited ask is in, the round's answers become pending.
 */
export function acceptKeyAnswer(
  state: ExchangeState,
  answer: KeyAnswer,
  ahead?: AheadPolicy,
  decidedQuestion = false,
): AnswerVerdict {
  if (state.status !== 'running') return 'duplicate';
  const delivery = deliveryTo(answer.round, expectedRound(state), state.pending !== undefined);
  if (delivery === 'ahead') return holdAhead(state, answer, ahead);
  if (delivery === 'repeat') return 'duplicate';
  // A question's key takes only the answer its question decided (acceptQuestion), never a client's.
  if (!decidedQuestion && asksSomeoneElse(state, answer.round)) return 'unexpected';
  if (state.awaiting === answer.round && !state.askKeys?.includes(answer.key)) return 'unexpected';
  if (state.awaiting === answer.round && signalledLate(state, answer.sentAt)) return 'late';
  if (state.partial?.round !== answer.round) state.partial = { round: answer.round, responses: {} };
  if (Object.hasOwn(state.partial.responses, answer.key)) return 'duplicate';
  state.partial.responses[answer.key] = answer.response;
  if (answer.sentAt !== undefined) state.partial.sentAt = Math.max(state.partial.sentAt ?? 0, answer.sentAt);
  completePartial(state);
  return 'accepted';
}

/** The round whose answers are taken next: the awaited one, or the one running (its ask may be on its way). */
function expectedRound(state: ExchangeState): number {
  return state.awaiting ?? state.round + 1;
}

/** Applies the answers held for the round whose ask was just folded in (answers-ahead.ts). */
function applyHeld(state: ExchangeState, round: number): void {
  for (const answer of releaseHeld(state, round)) {
    if (isKeyAnswer(answer)) acceptKeyAnswer(state, answer);
    else acceptAnswers(state, answer);
  }
}

function completePartial(state: ExchangeState): void {
  const partial = state.partial;
  if (!partial || state.awaiting !== partial.round || !state.askKeys) return;
  if (!state.askKeys.every((key) => Object.hasOwn(partial.responses, key))) return;
  const answeredBy = state.questions?.round === partial.round ? answeredByOf(state.questions) : undefined;
  state.pending = {
    round: partial.round,
    responses: partial.responses,
    digest: `keys:${state.askKeys.join(',')}`,
    ...(partial.sentAt !== undefined ? { sentAt: partial.sentAt } : {}),
    ...(answeredBy ? { answeredBy } : {}),
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

/**
 * Where answers to `round` stand in the workflow (with `key`, one key's answer of a legacy
 * client or a task): `taken` (handed to a round, or the round is past), `held` (in, waiting for
 * their round), `missing` (never reached the workflow, or refused), or `ended`. The API asks this
 * before it delivers a retried answer again: the workflow is the one authority on what it has.
 */
export type AnswerStanding = 'ended' | 'taken' | 'held' | 'missing';

export function answerStanding(state: ExchangeState, round: number, key?: string): AnswerStanding {
  if (state.status !== 'running') return 'ended';
  const expected = expectedRound(state);
  if (round < expected) return 'taken';
  if (round === expected) {
    if (state.pending?.round === round) return 'held';
    const partial = state.partial?.round === round ? state.partial.responses : undefined;
    return key !== undefined && partial && Object.hasOwn(partial, key) ? 'held' : 'missing';
  }
  const asked: RoundAnswers | KeyAnswer =
    key === undefined ? { round, responses: {}, digest: '' } : { round, key, response: null };
  return state.ahead?.some((answer) => sameDelivery(answer, asked)) ? 'held' : 'missing';
}

/** The answers that start the next round; clears the wait. */
export function takeAnswers(state: ExchangeState): RoundAnswers {
  const answers = state.pending;
  if (!answers) throw new Error('takeAnswers called with no accepted answers');
  state.pending = undefined;
  state.awaiting = undefined;
  return answers;
}
