/**
 * The rules of an addressed question, as pure functions the API (a fast pre-check before anything
 * is claimed or signalled), the workflow (the authority on what an exchange took) and the test
 * harness all apply: whom it names and when (admission.ts: who may answer it now, and when its
 * answers decide it). No Temporal, pg
 * or express import: the workflow bundle imports this file.
 */
import type { Addressing, Answerer, AnswererIdentity, QuestionCaller } from './question';

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
