/**
 * A retry that replies to the URL elicitations a leg was sent for the questions addressed to its
 * caller (round-wait.ts `urlAskOf`): `accept` is consent only (the answer comes from the question's
 * page), so nothing is signalled for it; a `decline` or `cancel` is the caller's answer to the
 * question, taken as the answer page takes one (claimed, judged, signalled, audited). The leg then
 * waits past the questions like any leg whose ask is someone else's. Any other reply to an addressed
 * ask is refused: its questions are answered from the answer page or the answer API.
 */
import type { RoundRecord } from '../../../../lib/exchange/types';
import { callerRepliesTo } from '../../../../lib/exchange-rules/addressed-leg';
import { addressedKeys, questionIdOf } from '../../../../lib/questions/addressing';
import type { RoundResult } from '../../../../lib/exchange-rules/leg-rules';
import type { CallerPages, ExchangeLeg } from './leg-types';

export async function takeUrlReplies(
  leg: ExchangeLeg,
  ask: RoundRecord,
  pages: CallerPages | undefined,
): Promise<RoundResult> {
  // Throws the refusal of anything but replies to the URL elicitations of the caller's questions.
  const refusals = callerRepliesTo(ask, leg.clientCapabilities, leg.inputResponses, pages !== undefined);
  if (ask.outcome.kind !== 'ask' || !pages) return { kind: 'recorded', record: ask };
  const keys = addressedKeys(ask.outcome.inputRequests);
  for (const { key, action } of refusals)
    await pages.refuseAsCaller(questionIdOf(ask.exchangeId, ask.round, key, keys), action);
  return { kind: 'recorded', record: ask };
}
