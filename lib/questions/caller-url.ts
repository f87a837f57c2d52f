/**
 * A question addressed to the caller (`answerer.caller()`), as the caller's own client is sent it:
 * a URL-mode elicitation pointing at the question's page, where the caller signs in (on another
 * device, say) and answers the form; MCP requires that whoever completes a URL elicitation be the
 * user who started it, and the page admits only the caller. The client's reply to a URL
 * elicitation is consent only: `accept` says the user went to the page (the answer comes from the
 * page), `decline` or `cancel` is the caller's answer to the question. Pure.
 */
import { addressedKeys, addressesCaller, addressingOf, questionIdOf } from './addressing';
import type { ElicitAnswer } from './question';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a client takes URL-mode elicitations (`elicitation.url`, 2025-11-25 and 2026-07-28 alike). */
export function takesUrlElicitation(clientCapabilities: Record<string, unknown>): boolean {
  const elicitation = clientCapabilities.elicitation;
  return isObject(elicitation) && isObject(elicitation.url);
}

/** The keys of an addressed ask whose questions are addressed to the caller, in the ask's order. */
export const callerQuestionKeys = (inputRequests: Record<string, unknown>): string[] =>
  addressedKeys(inputRequests).filter((key) => addressesCaller(addressingOf(inputRequests[key])!));

/** A URL-mode elicitation as MCP defines its params (2026-07-28; 2025-11-25 adds `elicitationId`). */
export interface UrlElicitation {
  method: 'elicitation/create';
  params: { mode: 'url'; message: string; url: string; elicitationId?: string };
}

/**
 * The URL elicitations that send the caller to its questions' pages, one per caller question of
 * the ask of `round`; `pageUrl` makes a question's page URL from its id. With `withIds` (the
 * 2025-11-25 wire) each carries the question's id as its `elicitationId`.
 */
export function callerUrlRequests(
  exchangeId: string,
  round: number,
  inputRequests: Record<string, unknown>,
  pageUrl: (questionId: string) => string,
  withIds = false,
): Record<string, UrlElicitation> {
  const keys = addressedKeys(inputRequests);
  return Object.fromEntries(
    callerQuestionKeys(inputRequests).map((key) => {
      const id = questionIdOf(exchangeId, round, key, keys);
      const { message } = (inputRequests[key] as { params: { message: string } }).params;
      const params = { mode: 'url' as const, message, url: pageUrl(id), ...(withIds ? { elicitationId: id } : {}) };
      return [key, { method: 'elicitation/create' as const, params }];
    }),
  );
}

/** The page of the first of an ask's questions for the caller, if it has one: what a waiting message names. */
export function callerPageOf(
  exchangeId: string,
  round: number,
  inputRequests: Record<string, unknown>,
  pageUrl: ((questionId: string) => string) | undefined,
): string | undefined {
  const key = callerQuestionKeys(inputRequests)[0];
  if (key === undefined || pageUrl === undefined) return undefined;
  return pageUrl(questionIdOf(exchangeId, round, key, addressedKeys(inputRequests)));
}

/** What a client's replies to URL elicitations say: who declined or cancelled, or why they are not replies to them. */
export type UrlConsent =
  | { kind: 'consent'; refusals: Array<{ key: string; action: 'decline' | 'cancel' }> }
  | { kind: 'invalid'; reason: string };

/** A client's reply to one URL elicitation: an `ElicitResult` without content. */
export function urlReplyAction(reply: unknown): ElicitAnswer['action'] | undefined {
  if (!isObject(reply) || reply.content !== undefined) return undefined;
  const { action } = reply;
  return action === 'accept' || action === 'decline' || action === 'cancel' ? action : undefined;
}

/**
 * Reads a retry's `inputResponses` to an ask whose caller questions it was sent as URL
 * elicitations: each reply must be to one of them (the other questions are someone else's).
 */
export function urlConsentOf(
  inputRequests: Record<string, unknown>,
  inputResponses: Record<string, unknown> | undefined,
): UrlConsent {
  const callerKeys = callerQuestionKeys(inputRequests);
  const refusals: Array<{ key: string; action: 'decline' | 'cancel' }> = [];
  for (const [key, reply] of Object.entries(inputResponses ?? {})) {
    if (!(key in inputRequests)) continue; // Extras are ignored, as the spec says of any answer.
    if (!callerKeys.includes(key))
      return { kind: 'invalid', reason: `inputResponses.${key}: this question is addressed to someone else` };
    const action = urlReplyAction(reply);
    if (action === undefined)
      return {
        kind: 'invalid',
        reason: `inputResponses.${key}: a URL elicitation's reply is { action } without content`,
      };
    if (action !== 'accept') refusals.push({ key, action });
  }
  return { kind: 'consent', refusals };
}
