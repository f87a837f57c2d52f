/**
 * An addressed ask whose wait ended unanswered, when its handler decides what that means
 * (`onExpiry: 'handler'`, lib/questions/question-wait.ts `expiryReachesHandler`): the workflow hands the
 * next round the expiry in place of answers. Pure, as exchange-state.ts is.
 */
import type { RoundAnswers } from '../exchange/types';
import type { ExchangeState } from './exchange-state';
import { answeredByOf } from './question-state';

/**
 * The "answers" of an awaited ask whose wait ended unanswered and whose handler decides what that
 * means (`onExpiry: 'handler'`): the keys its questions decided before the end (a multi-question
 * ask) with their answers and answerers, and every other key as expired. Clears the wait, as
 * `takeAnswers` does, so nothing signalled for that round is taken afterwards.
 */
export function expireAsk(state: ExchangeState): RoundAnswers {
  const round = state.awaiting;
  if (round === undefined) throw new Error('expireAsk called with no awaited ask');
  const responses = state.partial?.round === round ? state.partial.responses : {};
  const decided = Object.keys(responses);
  const answeredBy = Object.fromEntries(
    Object.entries((state.questions?.round === round ? answeredByOf(state.questions) : undefined) ?? {}).filter(
      ([key]) => decided.includes(key),
    ),
  );
  state.partial = undefined;
  state.awaiting = undefined;
  return {
    round,
    responses,
    // Nobody's answers reached the next round: the workflow records it without a digest.
    digest: '',
    expired: (state.askKeys ?? []).filter((key) => !decided.includes(key)),
    ...(Object.keys(answeredBy).length > 0 ? { answeredBy } : {}),
  };
}
