/**
 * The questions an addressed ask becomes, as the worker records them with the ask: one per key,
 * with what its answerers are shown and the digest of that (an answer names the digest it was
 * given, so a question changed underneath is never approved blind). Pure.
 */
import { digestJson } from '../exchange/digest';
import { personIdOf, principalOf } from '../exchange/principal';
import type { ExchangeInput } from '../exchange/types';
import { addressedKeys, addressingOf, answererKey, escalatesAt, firstAddressees, questionIdOf } from './addressing';
import type { Addressing, QuestionView } from './question';

/** What an answerer is shown, whose digest an answer must name. */
export function shownDigestOf(
  view: Pick<QuestionView, 'method' | 'target' | 'arguments' | 'caller' | 'message' | 'requestedSchema'>,
): string {
  return digestJson({
    method: view.method,
    target: view.target,
    arguments: view.arguments,
    caller: view.caller.id,
    message: view.message,
    requestedSchema: view.requestedSchema,
  });
}

/** A question as it is written, before any answer. */
export interface NewQuestion extends Omit<QuestionView, 'status' | 'answers'> {
  addresseeKeys: string[];
  escalationKeys: string[];
  escalateAt?: number;
}

/** The arguments a question shows: a tool's arguments, a prompt's, or a resource's URI. */
function argumentsOf(exchange: ExchangeInput): Record<string, unknown> {
  const params = exchange.request.params;
  const args = params.arguments;
  if (typeof args === 'object' && args !== null && !Array.isArray(args)) return args as Record<string, unknown>;
  return typeof params.uri === 'string' ? { uri: params.uri } : {};
}

/** The questions of an addressed ask recorded at `askedAt` with the round's deadline `deadlineAt`. */
export function questionsOfAsk(
  exchange: ExchangeInput,
  round: number,
  inputRequests: Record<string, unknown>,
  askedAt: number,
  deadlineAt: number,
): NewQuestion[] {
  const caller = {
    id: exchange.principal,
    personId: exchange.callerPersonId ?? personIdOf(principalOf(exchange.principal, exchange.principalDetails)),
    ...(exchange.callerUnmatched !== undefined ? { unmatched: exchange.callerUnmatched } : {}),
    subject: exchange.principalDetails?.subject ?? exchange.principal,
    ...(exchange.principalDetails?.issuer !== undefined ? { issuer: exchange.principalDetails.issuer } : {}),
    // Shown beside the subject and issuer; the digest of what is shown names the caller by its key.
    ...(exchange.principalDetails?.name !== undefined ? { name: exchange.principalDetails.name } : {}),
    ...(exchange.principalDetails?.email !== undefined ? { email: exchange.principalDetails.email } : {}),
  };
  const keys = addressedKeys(inputRequests);
  return keys.map((key) => {
    const request = inputRequests[key] as { params: { message: string; requestedSchema: Record<string, unknown> } };
    const addressing: Addressing = addressingOf(request)!;
    const shown = {
      method: exchange.request.method,
      target: exchange.request.target,
      arguments: argumentsOf(exchange),
      caller,
      message: request.params.message,
      requestedSchema: request.params.requestedSchema,
    };
    const escalateAt = escalatesAt(addressing, askedAt);
    return {
      id: questionIdOf(exchange.exchangeId, round, key, keys),
      exchangeId: exchange.exchangeId,
      round,
      key,
      ...shown,
      addressing,
      askedAt,
      deadlineAt,
      shownDigest: shownDigestOf(shown),
      addresseeKeys: firstAddressees(addressing).map((a) => answererKey(a, caller)),
      escalationKeys: (addressing.escalate?.to ?? []).map((a) => answererKey(a, caller)),
      ...(escalateAt !== undefined ? { escalateAt } : {}),
    };
  });
}
