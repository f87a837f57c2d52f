/**
 * The rules of an addressed question, as pure functions the API (a fast pre-check before anything
 * is claimed or signalled), the workflow (the authority on what an exchange took) and the test
 * harness all apply: who may answer it and when, and when its answers decide it. No Temporal, pg
 * or express import: the workflow bundle imports this file.
 */
import type { Addressing, Answerer, AnswererIdentity, ElicitAnswer, QuestionCaller } from './question';

/** The field of an embedded request that addresses it (`@durable-mcp/handlers` `ADDRESSED_TO`). */
export const ADDRESSED_TO = 'addressedTo';

/** At most this many answerers in one list, and this long each of their strings. */
export const MAX_ANSWERERS = 20;
export const MAX_ANSWERER_STRING = 255;

/** The addressing of one embedded request, if it is addressed. */
export function addressingOf(request: unknown): Addressing | undefined {
  if (typeof request !== 'object' || request === null) return undefined;
  const addressing = (request as Record<string, unknown>)[ADDRESSED_TO];
  return typeof addressing === 'object' && addressing !== null ? (addressing as Addressing) : undefined;
}

/** The keys of an ask's addressed requests, in the ask's order. */
export function addressedKeys(inputRequests: Record<string, unknown>): string[] {
  return Object.keys(inputRequests).filter((key) => addressingOf(inputRequests[key]) !== undefined);
}

/** Whether an ask addresses anyone (then every one of its requests is addressed: `checkAddressedAsk`). */
export const isAddressedAsk = (inputRequests: Record<string, unknown>): boolean =>
  addressedKeys(inputRequests).length > 0;

/**
 * A question's id: its exchange, its round and its place among the ask's addressed keys (sorted,
 * since Postgres keeps an object's keys in an order of its own), so the worker that records it and
 * the workflow that announces it name it alike. It is in the question's URL and grants nothing:
 * reading and answering need a sign-in the question admits (and the exchange id is a random UUID).
 */
export function questionIdOf(exchangeId: string, round: number, key: string, keys: readonly string[]): string {
  return `${exchangeId}.${round}.${[...keys].sort().indexOf(key)}`;
}

/** Whether `identity` is the exchange's caller: its own principal, or the same person through another client. */
export const isCaller = (identity: Pick<AnswererIdentity, 'id'>, caller: QuestionCaller): boolean =>
  identity.id === caller.id || (caller.personId !== undefined && identity.id === caller.personId);

/**
 * One answerer's kind and value, as a key Postgres can match an answerer's identity against. The
 * caller is keyed as the person (`personId`) a sign-in or a token of theirs is keyed by.
 */
export function answererKey(answerer: Answerer, caller?: QuestionCaller): string {
  if ('caller' in answerer) return JSON.stringify(['person', caller?.personId ?? caller?.id ?? '']);
  if ('scope' in answerer) return JSON.stringify(['scope', answerer.scope]);
  if ('group' in answerer) return JSON.stringify(['group', answerer.group]);
  return JSON.stringify(['principal', answerer.issuer, answerer.subject]);
}

/** Every key an identity is admitted by (`answererKey` of each answerer that names it). */
export function identityKeys(identity: AnswererIdentity): string[] {
  return [
    JSON.stringify(['person', identity.id]),
    ...(identity.issuer !== undefined ? [answererKey({ issuer: identity.issuer, subject: identity.subject })] : []),
    ...identity.scopes.map((scope) => answererKey({ scope })),
    ...identity.groups.map((group) => answererKey({ group })),
  ];
}

/** Whether `answerer` names `identity` (its principal, a scope it holds, a group it is in, the caller it is). */
export function answererNames(answerer: Answerer, identity: AnswererIdentity, caller: QuestionCaller): boolean {
  if ('caller' in answerer) return isCaller(identity, caller);
  if ('scope' in answerer) return identity.scopes.includes(answerer.scope);
  if ('group' in answerer) return identity.groups.includes(answerer.group);
  return identity.issuer === answerer.issuer && identity.subject === answerer.subject;
}

/** Whether a question's first addressees include its caller: the caller's client may be sent it in URL mode. */
export const addressesCaller = (addressing: Addressing): boolean =>
  firstAddressees(addressing).some((answerer) => 'caller' in answerer);

/** The answerers a question is addressed to first (`anyOf` or `eachOf`). */
export const firstAddressees = (addressing: Addressing): Answerer[] => addressing.anyOf ?? addressing.eachOf ?? [];

/** When the escalation's answerers join (epoch ms), if the question escalates. */
export const escalatesAt = (addressing: Addressing, askedAt: number): number | undefined =>
  addressing.escalate ? askedAt + addressing.escalate.afterMs : undefined;

/** Everyone who may answer at `at`: the first addressees, and the escalation's once it is due. */
export function addresseesAt(addressing: Addressing, askedAt: number, at: number): Answerer[] {
  const due = escalatesAt(addressing, askedAt);
  return [...firstAddressees(addressing), ...(due !== undefined && at >= due ? addressing.escalate!.to : [])];
}

/** One answer a question took, with the slot of an `eachOf` it fills. */
export interface SlottedAnswer {
  slot: number;
  by: Pick<AnswererIdentity, 'id'>;
  response: ElicitAnswer;
}

export type Admission =
  | { admitted: true; slot: number }
  | { admitted: false; reason: 'not-addressed' | 'caller-excluded' | 'already-answered' | 'closed' };

/**
 * Whether `identity` may answer now (`at`), given what the question took so far. An `anyOf` has
 * one slot; an `eachOf` one per answerer, each filled by the first admitted principal that has not
 * filled another; an escalation's answerers may fill any open slot.
 */
export function admission(
  addressing: Addressing,
  identity: AnswererIdentity,
  context: { caller: QuestionCaller; askedAt: number; at: number; taken: SlottedAnswer[] },
): Admission {
  if (decisionOf(addressing, context.taken)) return { admitted: false, reason: 'closed' };
  if (addressing.excludeCaller && isCaller(identity, context.caller))
    return { admitted: false, reason: 'caller-excluded' };
  const names = (answerer: Answerer) => answererNames(answerer, identity, context.caller);
  if (context.taken.some((answer) => answer.by.id === identity.id))
    return { admitted: false, reason: 'already-answered' };
  const filled = new Set(context.taken.map((answer) => answer.slot));
  if (!addressing.eachOf) {
    const admitted = addresseesAt(addressing, context.askedAt, context.at).some(names);
    return admitted ? { admitted: true, slot: 0 } : { admitted: false, reason: 'not-addressed' };
  }
  const open = addressing.eachOf.map((_, slot) => slot).filter((slot) => !filled.has(slot));
  const own = open.find((slot) => names(addressing.eachOf![slot]!));
  if (own !== undefined) return { admitted: true, slot: own };
  const escalated = addresseesAt(addressing, context.askedAt, context.at).slice(addressing.eachOf.length);
  if (open.length > 0 && escalated.some(names)) return { admitted: true, slot: open[0]! };
  return { admitted: false, reason: 'not-addressed' };
}

/**
 * The answer that decides a question, once one does: an `anyOf`'s first; an `eachOf`'s first
 * decline or cancel, else its last accept once every slot is filled.
 */
export function decisionOf(addressing: Addressing, taken: SlottedAnswer[]): ElicitAnswer | undefined {
  if (!addressing.eachOf) return taken[0]?.response;
  const refusal = taken.find((answer) => answer.response.action !== 'accept');
  if (refusal) return refusal.response;
  const filled = new Set(taken.map((answer) => answer.slot));
  return addressing.eachOf.every((_, slot) => filled.has(slot)) ? taken.at(-1)?.response : undefined;
}

/** How long a question waits: its own `waitMs`, else the round timeout, never past `maxWaitMs`. */
export const questionWaitMs = (addressing: Addressing, roundTimeoutMs: number, maxWaitMs: number): number =>
  Math.min(addressing.waitMs ?? roundTimeoutMs, maxWaitMs);

/** The wait of an addressed ask: its longest question's (they share the round's deadline). */
export function addressedAskWaitMs(
  inputRequests: Record<string, unknown>,
  roundTimeoutMs: number,
  maxWaitMs: number,
): number | undefined {
  const waits = addressedKeys(inputRequests).map((key) =>
    questionWaitMs(addressingOf(inputRequests[key])!, roundTimeoutMs, maxWaitMs),
  );
  return waits.length > 0 ? Math.max(...waits) : undefined;
}
