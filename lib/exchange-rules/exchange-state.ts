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

// The held-answers policy is part of this module's API for the workflow and its tests.
export type { AheadPolicy } from './answers-ahead';
export { initialState, type AnswerVerdict, type ExchangeState } from './exchange-state-fields';
export {
  acceptAnswers,
  acceptKeyAnswer,
  acceptQuestion,
  answerStanding,
  takeAnswers,
  type AnswerStanding,
} from './answer-taking';
export { mayAsk, recordRound, requestCancel } from './round-folding';
