/**
 * How an exchange's workflow takes answers (exchange-state.ts): the first answers to the round it
 * waits for, one legacy key at a time or all at once, and the answers of someone a question is
 * addressed to; duplicates and late answers are refused, answers ahead of their ask are held
 * (answers-ahead.ts). Pure, as the workflow needs it.
 */
import { deliveryTo } from './answer-repeats';
import type { KeyAnswer, RoundAnswers } from '../exchange/types';
import type { QuestionAnswer } from '../questions/question';
import { holdAhead, isKeyAnswer, releaseHeld, sameDelivery, type AheadPolicy } from './answers-ahead';
import { acceptQuestionAnswer, answeredByOf, type QuestionVerdict } from './question-state';
import { expectedRound, signalledLate, type AnswerVerdict, type ExchangeState } from './exchange-state-fields';

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

/** Applies the answers held for the round whose ask was just folded in (answers-ahead.ts). */
export function applyHeld(state: ExchangeState, round: number): void {
  for (const answer of releaseHeld(state, round)) {
    if (isKeyAnswer(answer)) acceptKeyAnswer(state, answer);
    else acceptAnswers(state, answer);
  }
}

/** Makes the round's answers pending once every key of the awaited ask is in (with who answered its questions). */
export function completePartial(state: ExchangeState): void {
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
