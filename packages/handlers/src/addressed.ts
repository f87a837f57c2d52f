/**
 * Questions addressed to someone other than the caller: an elicitation that an approver, the
 * on-call engineer or a data owner answers, from the service's answer page or its answer API, while
 * the caller's client waits. A handler asks one with `elicitFrom(to, { message, requestedSchema })`
 * inside `inputRequired({ inputRequests })`, and reads the answer under its key as it reads any
 * other (`inputResponse(ctx.inputResponses, key)`); `ctx.answeredBy[key]` says who answered, when
 * and through what.
 *
 * An ask that addresses someone holds only addressed questions: ask the caller in a round of its
 * own. Nobody outside the addressed set can answer, the caller's client included.
 */
import { inputRequired, type ElicitInputParams, type InputRequest } from '@modelcontextprotocol/server';

/**
 * One named person (the issuer and subject of their sign-in), one named service (a bot answering
 * with its own client credentials, `service` its client id), the holders of a scope or the members
 * of a group (people at the answer page, services at the answer API), or the exchange's own
 * caller: the same person signed in at the answer page, on another device. A person answers only
 * at the page, signed in and present; a service only at the answer API, as itself; an MCP client's
 * token, or a person's token held by an agent, never answers.
 */
export type Answerer =
  | { issuer: string; subject: string }
  | { service: string; issuer?: string }
  | { scope: string }
  | { group: string }
  | { caller: true };

/** Builders for `Answerer`s, so an addressing reads as a sentence. */
export const answerer = {
  /** A person, as their sign-in at the answer page names them. */
  principal: (issuer: string, subject: string): Answerer => ({ issuer, subject }),
  /**
   * A service (a bot: Slack, Teams, a ticketing system) by its OAuth client id, answering through
   * the answer API with a token of its own (client credentials) for the answer API's resource;
   * `issuer` pins the authorization server when several are trusted.
   */
  service: (clientId: string, options: { issuer?: string } = {}): Answerer =>
    options.issuer !== undefined ? { service: clientId, issuer: options.issuer } : { service: clientId },
  scope: (scope: string): Answerer => ({ scope }),
  group: (group: string): Answerer => ({ group }),
  /**
   * The person who made the call, answering on the service's answer page (from another device,
   * say: a phone with the approval app). A client that takes URL-mode elicitations is sent one
   * pointing at the question's page; the page takes the answer only from the same person.
   */
  caller: (): Answerer => ({ caller: true }),
};

/**
 * How recently, and how, a person must have signed in to answer a question (checked against their
 * sign-in at the answer page: the ID token's `auth_time`, `acr` and `amr`). A person whose sign-in
 * falls short is sent through the sign-in service again, asked for what is missing; until their
 * sign-in meets it, their answer is refused (`step-up-required`). Only a person signed in at the
 * page can meet it: a service at the answer API never does.
 *
 * - `maxAgeS`: they signed in at most this many seconds before answering (OpenID Connect
 *   `max_age`); at least 60, so there is time to read and answer.
 * - `acr`: their sign-in's authentication context class is one of these (`acr_values`; what the
 *   values are, and which one means MFA, is your sign-in service's to say).
 * - `amr`: every one of these authentication methods was used (RFC 8176: `mfa`, `otp`, `hwk`,
 *   `face`...). Providers have no standard way to be asked for methods, so the person is asked to
 *   sign in again, and the provider's own policy must use them; name the provider's `acr` for MFA
 *   as well where it has one, so it knows to ask for a second factor.
 */
export interface SignInRequirement {
  maxAgeS?: number;
  acr?: string[];
  amr?: string[];
}

/**
 * Who a question is addressed to, and how long it waits.
 *
 * - `anyOf`: the first answer from any of them decides. `eachOf`: one accepting answer from each
 *   (each from a different principal; two approvals are `eachOf: [a, b]`); the first decline or
 *   cancel decides at once. Exactly one of the two.
 * - `excludeCaller`: the exchange's own caller may not answer even when admitted (separation of duties).
 * - `waitMs`: how long the question waits before its exchange ends as expired (the round's deadline);
 *   the service's round timeout when absent, at most `MAX_QUESTION_WAIT_MS`.
 * - `onExpiry`: what its wait ending unanswered does. `'end'` (the default): the exchange ends with
 *   the expiry error (-32001). `'handler'`: the handler runs again, with the question's key in
 *   `ctx.expired` and no answer under it, and decides: a tool error of its own ("not approved in
 *   time"), another ask, or a result. Every addressed question of one ask says the same.
 * - `remindAfterMs`: a reminder goes out (the `question.reminder` webhook) that long after the
 *   question starts waiting, if it still waits.
 * - `escalate`: after `afterMs`, `to` may answer as well (`question.escalated`).
 * - `requireSignIn`: a recent and/or stronger sign-in every answer needs (`SignInRequirement`), as
 *   in `requireSignIn: { maxAgeS: 300, amr: ['mfa'] }`: signed in within five minutes, with MFA.
 */
export interface Addressing {
  anyOf?: Answerer[];
  eachOf?: Answerer[];
  excludeCaller?: boolean;
  waitMs?: number;
  onExpiry?: 'end' | 'handler';
  remindAfterMs?: number;
  escalate?: { afterMs: number; to: Answerer[] };
  requireSignIn?: SignInRequirement;
}

/** The field of an embedded request that addresses it. */
export const ADDRESSED_TO = 'addressedTo';

/** An elicitation addressed to someone: the request as `inputRequired.elicit` builds it, and who answers it. */
export type AddressedRequest = InputRequest & { [ADDRESSED_TO]: Addressing };

/** An elicitation (form mode) addressed to `to` instead of the caller. */
export function elicitFrom(to: Addressing, params: ElicitInputParams): AddressedRequest {
  return { ...inputRequired.elicit(params), [ADDRESSED_TO]: to };
}

/** Who answered one addressed question, as the service verified it. */
export interface AnsweredBy {
  principal: { id: string; subject: string; issuer?: string; name?: string };
  /** When the service accepted the answer (epoch ms). */
  at: number;
  /** The answer page, the answer API, the caller's own MCP client (declining a URL-mode question), or the test harness. */
  via: 'page' | 'api' | 'client' | 'harness';
  action: 'accept' | 'decline' | 'cancel';
  /**
   * The id of the answer's entry in the service's signed evidence log (its hash): what an export
   * of the log names, and what the final result's `_meta["io.durable-mcp/approvals"]` lists.
   */
  evidence?: string;
}
