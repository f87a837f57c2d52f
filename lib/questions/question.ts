/**
 * A question: one elicitation a handler addressed to someone other than the caller (an approver,
 * the on-call engineer, a data owner), as the service records, shows and answers it. Types only:
 * the workflow bundle imports this file, so it stays free of runtime code.
 *
 * A question is one key of one round's ask. It is answered through the answer page or the answer
 * API (never by the caller's MCP client), by a principal its addressing admits, before its round's
 * deadline; the first admitted answer decides it ("any one of"), or every group of an "each of"
 * must accept.
 */

import type { Addressing, Answerer, SignInRequirement } from '@durable-mcp/handlers';

/** Who may answer, and who a question is addressed to: the handler API's own words (`elicitFrom`). */
export type { Addressing, Answerer, SignInRequirement };

/**
 * What an answerer is: a person signed in at the answer page (present: an interactive sign-in), a
 * service answering at the answer API with its own credentials, or a client: a token held by
 * software acting for someone (an MCP client's token, a person's delegated token), which answers
 * nothing addressed to anyone but may decline or cancel a question its own call sent it in URL mode.
 */
export type AnswererKind = 'person' | 'service' | 'client';

/** Who answered, as the service verified it (a token at the API, a sign-in at the page). */
export interface AnswererIdentity {
  /**
   * The stable key: a person's (`issuer|subject`, or the deployment's identity claim), or a
   * service's (`issuer|client:<client id>`), so a client id never matches a person's subject.
   */
  id: string;
  /** Absent only on answers recorded before kinds existed (their exchanges judge them as then). */
  kind?: AnswererKind;
  /** A service's client id (kind `service`). */
  clientId?: string;
  issuer?: string;
  subject: string;
  scopes: string[];
  groups: string[];
  /** A display name for pages and audit (the ID token's `name`), when known: self-chosen, shown beside the subject only. */
  name?: string;
  /** The sign-in's email, only when its provider says it is verified (`email_verified`). */
  email?: string;
  /**
   * How a person signed in at the page, as their ID token said (lib/questions/step-up.ts): `auth_time`
   * (epoch seconds), `acr` and `amr`. What a question's `requireSignIn` is judged against, and
   * what the evidence log records of the sign-in; absent when the token did not say (and on a
   * service's or a client's identity).
   */
  authTime?: number;
  acr?: string;
  amr?: string[];
}

/**
 * The caller as the rules compare an answerer to it: its principal key (`id`: issuer, subject and
 * client), and the key of the same person signed in through any other client (`personId`:
 * lib/exchange/principal.ts `personIdOf`), so a caller excluded from its own question cannot
 * answer it from the answer page either, and a question addressed to the caller admits them there.
 * An exchange recorded before `personId` existed has its `id` only.
 */
export interface QuestionCaller {
  id: string;
  personId?: string;
  /**
   * Why the caller cannot be matched with a person signed in at the page (its token lacks the
   * deployment's identity claim, ANSWER_IDENTITY_CLAIM): every comparison with the caller then
   * fails closed (`identity-unmatched`).
   */
  unmatched?: string;
}

/** Through what an answer came. */
export type AnswerChannel = 'page' | 'api' | 'client' | 'harness';

/** An elicitation result as it is carried (raw, as MCP defines `ElicitResult`). */
export interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

/** One answer a question took. */
export interface TakenAnswer {
  by: AnswererIdentity;
  /** When the service accepted it (epoch ms). */
  at: number;
  via: AnswerChannel;
  action: ElicitAnswer['action'];
  /** What an accept carried (the form's fields), as the answerer gave it; absent for a decline or cancel. */
  content?: ElicitAnswer['content'];
}

export type QuestionStatus = 'waiting' | 'answered' | 'expired' | 'cancelled';

/** What an answerer is shown of a question, on the page or through the API. */
export interface QuestionView {
  /** Opaque, random; in the question's URL. Carries no credential. */
  id: string;
  exchangeId: string;
  round: number;
  key: string;
  /** `tools/call`, `prompts/get` or `resources/read`, and the tool, prompt or resource it runs. */
  method: string;
  target: string;
  /** The call's arguments, as the caller sent them. */
  arguments: Record<string, unknown>;
  /**
   * Who made the call (`personId`: see `QuestionCaller`), with its token's display name and
   * verified email when it carried them (absent on questions recorded before they were kept).
   */
  caller: QuestionCaller & { subject: string; issuer?: string; name?: string; email?: string };
  message: string;
  /** The elicitation's `requestedSchema` (a flat object of primitive properties, MCP's restricted JSON Schema). */
  requestedSchema: Record<string, unknown>;
  addressing: Addressing;
  askedAt: number;
  deadlineAt: number;
  /** The digest of what an answerer is shown (method, target, arguments, caller, message, schema): an answer names it. */
  shownDigest: string;
  status: QuestionStatus;
  /** The answers it took, in order. */
  answers: TakenAnswer[];
}

/**
 * One answer to one question, as the API signals it to the exchange's workflow after claiming it
 * in Postgres: the raw elicitation result, who gave it (verified), through what, and when the API
 * took it (`sentAt`: the deadline rule compares it). `answerId` makes a repeated signal (a retry,
 * the re-signal of an answer whose first signal was lost with its API) a duplicate.
 */
export interface QuestionAnswer {
  round: number;
  key: string;
  answerId: string;
  response: ElicitAnswer;
  by: AnswererIdentity;
  via: AnswerChannel;
  sentAt: number;
  /** The hash of the answer's evidence entry (docs/security.md "Evidence"); absent on answers claimed before the log. */
  evidence?: string;
}
