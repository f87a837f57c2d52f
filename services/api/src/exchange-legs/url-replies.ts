/**
 * A retry that replies to the URL elicitations a leg was sent for the questions addressed to its
 * caller (round-wait.ts `urlAskOf`): `accept` is consent only (the answer comes from the question's
 * page), so nothing is signalled for it; a `decline` or `cancel` is the caller's answer to the
 * question, taken as the answer page takes one (claimed, judged, signalled, audited). The leg then
 * waits past the questions like any leg whose ask is someone else's. Any other reply to an addressed
 * ask is refused: its questions are answered from the answer page or the answer API.
 */
import type { RoundRecord } from '../../../../lib/exchange/types';
import { questionsNotForCaller } from '../../../../lib/protocol/error-catalog';
import { addressedKeys, questionIdOf } from '../../../../lib/questions/addressing';
import { takesUrlElicitation, urlConsentOf } from '../../../../lib/questions/caller-url';
import type { RoundResult } from '../../../../lib/exchange-rules/leg-rules';
import type { CallerPages, ExchangeLeg } from './leg-types';

export async function takeUrlReplies(
  leg: ExchangeLeg,
  ask: RoundRecord,
  pages: CallerPages | undefined,
): Promise<RoundResult> {
  if (ask.outcome.kind !== 'ask') throw questionsNotForCaller();
  const { inputRequests } = ask.outcome;
  if (!pages || !takesUrlElicitation(leg.clientCapabilities)) throw questionsNotForCaller();
  const consent = urlConsentOf(inputRequests, leg.inputResponses);
  if (consent.kind === 'invalid') throw questionsNotForCaller(consent.reason);
  const keys = addressedKeys(inputRequests);
  for (const { key, action } of consent.refusals)
    await pages.refuseAsCaller(questionIdOf(ask.exchangeId, ask.round, key, keys), action);
  return { kind: 'recorded', record: ask };
}
