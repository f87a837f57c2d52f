/**
 * The rules of an addressed question, as pure functions the API (a fast pre-check before anything
 * is claimed or signalled), the workflow (the authority on what an exchange took) and the test
 * harness all apply: who may answer it and when, and when its answers decide it. No Temporal, pg
 * or express import: the workflow bundle imports this file.
 */
import { requiresAnything, unmetRequirement } from './step-up';
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

/**
 * Whether `identity` is the exchange's caller: the person (or service) behind the caller's token,
 * keyed as a sign-in or an answer-API token of theirs is. An exchange recorded before the caller's
 * person had a key of its own is compared by its principal key.
 */
export const isCaller = (identity: Pick<AnswererIdentity, 'id'>, caller: QuestionCaller): boolean =>
  caller.personId !== undefined ? identity.id === caller.personId : identity.id === caller.id;

/**
 * One answerer's kind and value, as a key Postgres can match an answerer's identity against. The
 * caller is keyed as the person (`personId`) a sign-in or a token of theirs is keyed by.
 */
export function answererKey(answerer: Answerer, caller?: QuestionCaller): string {
  if ('caller' in answerer) return JSON.stringify(['person', caller?.personId ?? caller?.id ?? '']);
  if ('service' in answerer)
    return JSON.stringify(
      answerer.issuer === undefined ? ['service', answerer.service] : ['service', answerer.issuer, answerer.service],
    );
  if ('scope' in answerer) return JSON.stringify(['scope', answerer.scope]);
  if ('group' in answerer) return JSON.stringify(['group', answerer.group]);
  return JSON.stringify(['principal', answerer.issuer, answerer.subject]);
}

/**
 * Every key an identity is admitted by (`answererKey` of each answerer that names it): what the
 * answer page and the answer API list a person's or a service's waiting questions by. A client
 * (an agent's token) is admitted by none.
 */
export function identityKeys(identity: AnswererIdentity): string[] {
  if (identity.kind === 'client') return [];
  const named =
    identity.kind === 'service'
      ? identity.clientId === undefined
        ? []
        : [
            answererKey({ service: identity.clientId }),
            ...(identity.issuer !== undefined
              ? [answererKey({ service: identity.clientId, issuer: identity.issuer })]
              : []),
          ]
      : [
          JSON.stringify(['person', identity.id]),
          ...(identity.issuer !== undefined
            ? [answererKey({ issuer: identity.issuer, subject: identity.subject })]
            : []),
        ];
  return [
    ...named,
    ...identity.scopes.map((scope) => answererKey({ scope })),
    ...identity.groups.map((group) => answererKey({ group })),
  ];
}

/**
 * Whether `answerer` names `identity`. Kinds keep apart what strings alone would not: a person
 * (`{ issuer, subject }`, the caller) is never a service whose client id is the same string, a
 * service (`{ service }`) never a person, and a client (an agent's token) is named by nothing but
 * the caller it acts for (for the decline of a URL-mode question: `admission`).
 */
export function answererNames(answerer: Answerer, identity: AnswererIdentity, caller: QuestionCaller): boolean {
  if ('caller' in answerer) {
    if (identity.kind === 'service') return false;
    // The caller's own client is bound to the caller by the channel it answers on; a person at
    // the page must be matched with the caller.
    if (identity.kind === 'client') return isCaller(identity, caller);
    return caller.unmatched === undefined && isCaller(identity, caller);
  }
  if (identity.kind === 'client') return false;
  if ('service' in answerer)
    return (
      identity.kind === 'service' &&
      identity.clientId === answerer.service &&
      (answerer.issuer === undefined || identity.issuer === answerer.issuer)
    );
  if ('scope' in answerer) return identity.scopes.includes(answerer.scope);
  if ('group' in answerer) return identity.groups.includes(answerer.group);
  return identity.kind !== 'service' && identity.issuer === answerer.issuer && identity.subject === answerer.subject;
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

export type AdmissionRefusal =
  | 'not-addressed'
  | 'caller-excluded'
  | 'already-answered'
  | 'closed'
  | 'client-token'
  | 'identity-unmatched'
  | 'step-up-required';

export type Admission = { admitted: true; slot: number } | { admitted: false; reason: AdmissionRefusal };

/**
 * Whether a client's token may give this answer: only the decline or cancel of a question its own
 * call sent it in URL mode (addressed to the caller), never an accept, never anyone else's question.
 */
const clientMayAnswer = (
  addressing: Addressing,
  identity: AnswererIdentity,
  caller: QuestionCaller,
  action: ElicitAnswer['action'] | undefined,
): boolean => action !== undefined && action !== 'accept' && addressesCaller(addressing) && isCaller(identity, caller);

/**
 * Whether `identity`'s sign-in meets the question's `requireSignIn` at `at`: always, when it asks
 * nothing (a question recorded before it existed included); a person's, when their ID token's
 * `auth_time`, `acr` and `amr` do (lib/questions/step-up.ts); a service's never, as it is no person
 * present. A caller's client reaches this only to decline or cancel its own call's URL-mode
 * question, which approves nothing: it is not held to the requirement.
 */
export function meetsSignInRequirement(addressing: Addressing, identity: AnswererIdentity, at: number): boolean {
  const requirement = addressing.requireSignIn;
  if (!requiresAnything(requirement) || identity.kind === 'client') return true;
  if (identity.kind === 'service') return false;
  return unmetRequirement(identity, requirement!, at) === undefined;
}

/**
 * Whether `identity` may answer now (`at`), given what the question took so far. An `anyOf` has
 * one slot; an `eachOf` one per answerer, each filled by the first admitted principal that has not
 * filled another; an escalation's answerers may fill any open slot. One who would be admitted but
 * whose sign-in falls short of the question's `requireSignIn` is refused `step-up-required` (only
 * then, so nobody else learns what it requires).
 */
export function admission(
  addressing: Addressing,
  identity: AnswererIdentity,
  context: {
    caller: QuestionCaller;
    askedAt: number;
    at: number;
    taken: SlottedAnswer[];
    /** The answer's action: a client's token may only decline or cancel (`clientMayAnswer`). */
    action?: ElicitAnswer['action'];
  },
): Admission {
  if (decisionOf(addressing, context.taken)) return { admitted: false, reason: 'closed' };
  if (identity.kind === 'client' && !clientMayAnswer(addressing, identity, context.caller, context.action))
    return { admitted: false, reason: 'client-token' };
  // Who is the caller cannot be told: separation of duties fails closed.
  if (addressing.excludeCaller && context.caller.unmatched !== undefined)
    return { admitted: false, reason: 'identity-unmatched' };
  if (addressing.excludeCaller && isCaller(identity, context.caller))
    return { admitted: false, reason: 'caller-excluded' };
  const names = (answerer: Answerer) => answererNames(answerer, identity, context.caller);
  if (context.taken.some((answer) => answer.by.id === identity.id))
    return { admitted: false, reason: 'already-answered' };
  const filled = new Set(context.taken.map((answer) => answer.slot));
  const notAdmitted: Admission = {
    admitted: false,
    reason:
      context.caller.unmatched !== undefined &&
      addresseesAt(addressing, context.askedAt, context.at).some((a) => 'caller' in a)
        ? 'identity-unmatched'
        : 'not-addressed',
  };
  const slot = admittedSlot(addressing, context.askedAt, context.at, filled, names);
  if (slot === undefined) return notAdmitted;
  if (!meetsSignInRequirement(addressing, identity, context.at)) return { admitted: false, reason: 'step-up-required' };
  return { admitted: true, slot };
}

/** The slot an answerer `names` admits may fill at `at`, if any (`admission`). */
function admittedSlot(
  addressing: Addressing,
  askedAt: number,
  at: number,
  filled: ReadonlySet<number>,
  names: (answerer: Answerer) => boolean,
): number | undefined {
  if (!addressing.eachOf) return addresseesAt(addressing, askedAt, at).some(names) ? 0 : undefined;
  const open = addressing.eachOf.map((_, slot) => slot).filter((slot) => !filled.has(slot));
  const own = open.find((slot) => names(addressing.eachOf![slot]!));
  if (own !== undefined) return own;
  const escalated = addresseesAt(addressing, askedAt, at).slice(addressing.eachOf.length);
  return open.length > 0 && escalated.some(names) ? open[0] : undefined;
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
