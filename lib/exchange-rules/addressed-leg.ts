/**
 * A retry that answers an ask addressed to someone else (an `elicitFrom` ask): its questions are
 * answered from the answer page or the answer API, never by the caller's client. The one thing the
 * client may send back is its replies to the URL elicitations it was sent for the questions
 * addressed to its caller (lib/questions/caller-url.ts), when the deployment serves those pages:
 * `accept` is consent only, a `decline` or `cancel` is the caller's answer to its question.
 * Anything else is refused with -32602 (`questionsNotForCaller`). The API decides this before it
 * classifies the leg (leg-rules.ts `classifyAnswer`), so a late or repeated answer to such an ask
 * gets this refusal too; the test harness decides it the same way.
 */
import type { RoundRecord } from '../exchange/types';
import { questionsNotForCaller } from '../protocol/error-catalog';
import { isAddressedAsk } from '../questions/addressing';
import { takesUrlElicitation, urlConsentOf } from '../questions/caller-url';

/** Whether a recorded round is an ask addressed to someone other than its caller. */
export const asksSomeoneElse = (record: RoundRecord): boolean =>
  record.outcome.kind === 'ask' && isAddressedAsk(record.outcome.inputRequests);

/** The caller's declines and cancels of the URL elicitations of its questions. */
export type CallerRefusals = Array<{ key: string; action: 'decline' | 'cancel' }>;

/**
 * What a client's `inputResponses` to the addressed ask `ask` are: the caller's refusals among its
 * replies to URL elicitations (accepts say only that the caller went to the page), or a refusal
 * thrown (`questionsNotForCaller`, an RpcError) when they are anything else. `pagesServed`: the
 * deployment serves question pages, so its callers were sent URL elicitations at all.
 */
export function callerRepliesTo(
  ask: RoundRecord,
  clientCapabilities: Record<string, unknown>,
  inputResponses: Record<string, unknown> | undefined,
  pagesServed: boolean,
): CallerRefusals {
  if (ask.outcome.kind !== 'ask') throw questionsNotForCaller();
  if (!pagesServed || !takesUrlElicitation(clientCapabilities)) throw questionsNotForCaller();
  const consent = urlConsentOf(ask.outcome.inputRequests, inputResponses);
  if (consent.kind === 'invalid') throw questionsNotForCaller(consent.reason);
  return consent.refusals;
}
