/**
 * Answers held ahead of their round (exchange-state.ts `ahead`): answers that reach the workflow
 * before, in its own view, their round has asked (a round run as a local activity whose task was
 * retried after its worker died). They are held, once per round or per key, until the round's ask is
 * folded in, then handed back to be applied by the same rules as any other answers. Plain functions
 * with no Temporal import, like the state they keep.
 */
import type { KeyAnswer, RoundAnswers } from '../exchange/types';

/**
 * Whether answers to a round the workflow has not yet seen ask may be held for it, and up to which
 * round (no exchange asks past its round cap). `allowed` is asked only when such answers arrive, so
 * a workflow can gate the behaviour (`patched`) without marking every history.
 */
export interface AheadPolicy {
  allowed: () => boolean;
  lastRound: number;
}

/** The part of the exchange's state these functions keep: the answers held, oldest first. */
export interface AnswersHeld {
  ahead?: Array<RoundAnswers | KeyAnswer>;
}

/** What becomes of answers to a round the workflow has not yet seen ask. */
export type AheadVerdict = 'held' | 'duplicate' | 'unexpected';

export const isKeyAnswer = (answer: RoundAnswers | KeyAnswer): answer is KeyAnswer => 'key' in answer;

/** Whether `held` is the same delivery as `answer`: the round's answers, or the same key's answer, again. */
export function sameDelivery(held: RoundAnswers | KeyAnswer, answer: RoundAnswers | KeyAnswer): boolean {
  if (held.round !== answer.round || isKeyAnswer(held) !== isKeyAnswer(answer)) return false;
  return !isKeyAnswer(answer) || (held as KeyAnswer).key === answer.key;
}

/** Holds answers to a round past the expected one, when the policy allows it (once per round, or per key). */
export function holdAhead(
  state: AnswersHeld,
  answer: RoundAnswers | KeyAnswer,
  ahead: AheadPolicy | undefined,
): AheadVerdict {
  if (!ahead || answer.round > ahead.lastRound) return 'unexpected';
  if (state.ahead?.some((held) => sameDelivery(held, answer))) return 'duplicate';
  if (!ahead.allowed()) return 'unexpected';
  (state.ahead ??= []).push(answer);
  return 'held';
}

/**
 * Releases the answers held for the round whose ask was just folded in, for the caller to apply;
 * drops those no round can take now and keeps those for later rounds.
 */
export function releaseHeld(state: AnswersHeld, round: number): Array<RoundAnswers | KeyAnswer> {
  const held = state.ahead;
  if (!held) return [];
  state.ahead = held.filter((answer) => answer.round > round);
  if (state.ahead.length === 0) state.ahead = undefined;
  return held.filter((a) => a.round === round);
}
