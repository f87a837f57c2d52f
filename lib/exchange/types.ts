/**
 * The vocabulary of an exchange, shared by the API, the workflow and the activities.
 * Types only: the workflow bundle imports this file, so it must stay free of runtime code.
 *
 * An exchange is one originating `tools/call`, `prompts/get` or `resources/read`, from its first
 * leg to its final result. Each execution of the handler is a *round*, numbered from 1. A round
 * ends in an outcome: an ask (embedded requests the client must fulfil), a complete result, or an
 * error. The answers to the ask of round N are the input of round N + 1.
 */

import type { Addressing, AnsweredBy, RoundActivity } from '@durable-mcp/handlers';
import type { EXCHANGE_METHODS } from './exchange-methods';

/** A principal without its key: subject, client, issuer and scopes (lib/exchange/principal.ts). */
export interface PrincipalDetails {
  /** A person or a service (absent on exchanges recorded before kinds, and for the anonymous caller). */
  kind?: 'person' | 'service';
  subject: string;
  clientId?: string;
  issuer?: string;
  scopes: string[];
  /** Its token's display name, and its email when verified (lib/auth/display-claims.ts): shown, never compared. */
  name?: string;
  email?: string;
}

/** `tools/call`, `prompts/get` or `resources/read`: the one list is `EXCHANGE_METHODS` (exchange-methods.ts). */
export type ExchangeMethod = (typeof EXCHANGE_METHODS)[number];
export type Era = 'modern' | 'legacy';

/** The originating request, with the MRTR fields (`inputResponses`, `requestState`, `_meta`) stripped. */
export interface OriginalRequest {
  method: ExchangeMethod;
  /** Tool or prompt name, or resource URI. */
  target: string;
  params: Record<string, unknown>;
}

export interface Listening {
  progressToken?: string | number;
  logLevel?: string;
}

/** How an exchange's rounds run: a Temporal local activity, or a regular (heartbeating) one. */
export type { RoundActivity };

export interface ExchangeInput {
  exchangeId: string;
  era: Era;
  request: OriginalRequest;
  // (An input from an earlier release also carries `requestDigest`; nothing reads it.)
  /** Who the exchange belongs to: the principal's stable key (lib/exchange/principal.ts). */
  principal: string;
  /**
   * What the first leg's token said of the principal, for the handler's context. Absent in an
   * exchange started before principals had details (its handler sees the key as the subject).
   */
  principalDetails?: PrincipalDetails;
  /**
   * The key of the person behind the caller (lib/exchange/principal.ts `personIdOf`), which the
   * workflow compares answerers to; absent in an exchange started before it was recorded.
   */
  callerPersonId?: string;
  /**
   * Why the caller's person cannot be matched with anyone signed in at the answer page (its token
   * lacks ANSWER_IDENTITY_CLAIM): every comparison with the caller then fails closed.
   */
  callerUnmatched?: string;
  /**
   * The answer page's origin (ANSWER_PUBLIC_URL) when the page is on: a question addressed to the
   * caller is sent to a legacy client that takes URL mode as a link to its page.
   */
  answerPageOrigin?: string;
  clientCapabilities: Record<string, unknown>;
  /** What the first leg listens for: progress with this token, logs at this level or above. */
  listening?: Listening;
  /** Answers the first leg already carried (a client may send them before any ask). */
  initialResponses?: Record<string, unknown>;
  /** Per-round wait for answers, and the most asks one exchange may make. */
  roundTimeoutMs: number;
  maxRounds: number;
  /**
   * How its rounds run, from the handler's declaration when the exchange started, so the workflow
   * chooses deterministically. Absent in an exchange started before the choice existed: it runs
   * its rounds and its ending as regular activities, as its history has them.
   */
  roundActivity?: RoundActivity;
  /**
   * Set when the call runs as a task (the Tasks extension, SEP-2663) from its first leg; absent in
   * every exchange started before tasks existed, and in calls that run over MRTR (one may still
   * become a task later: `RoundAnswers.task`).
   */
  task?: TaskMode;
  /**
   * The version of the handlers served by the API that started the exchange (`demo@0.1.0`,
   * `acme-tools@1.2.0`, `tools.js@sha256:…`; at most 100 characters). Absent in an exchange started
   * before versions were recorded.
   */
  handlerVersion?: string;
  /**
   * Set when the API that started the exchange sends question webhooks (WEBHOOK_URLS): the workflow
   * starts a delivery for each moment of its questions; `pageBase` is the origin of their pages
   * (ANSWER_PUBLIC_URL), empty for a path only.
   */
  questionEvents?: { pageBase: string };
}

/**
 * What makes an exchange a task: its id on the wire, how long it and its records live, and how
 * often its client is told to poll. `expiresAt` (epoch ms, `createdAt + ttlMs`) is fixed by the API
 * when it writes the task's row, so the workflow's TTL timer and what `tasks/get` reads agree.
 */
export interface TaskMode {
  taskId: string;
  ttlMs: number;
  pollIntervalMs: number;
  expiresAt: number;
}

/** A JSON-RPC error as an outcome: the exchange ends and whoever asks next receives it. */
export interface OutcomeError {
  code: number;
  message: string;
  data?: unknown;
}

export type RoundOutcome =
  | { kind: 'complete'; result: Record<string, unknown> }
  | { kind: 'ask'; inputRequests: Record<string, unknown>; sealedHandlerState?: string }
  | { kind: 'error'; error: OutcomeError };

export type OutcomeKind = RoundOutcome['kind'];

/**
 * One embedded request of an ask as operators see it in the Temporal UI: its kind and the server's
 * own question (message and field names), bounded, never an answer or an argument's value.
 */
export interface AskedRequest {
  key: string;
  /** `elicitation/create`, `sampling/createMessage`, `roots/list` (or whatever a future kind is called). */
  method: string;
  /** An elicitation's mode. */
  mode?: 'form' | 'url';
  /** An elicitation's message to the person, cut to a bounded length. */
  message?: string;
  /** The names of the fields a form elicitation asks for, at most a bounded number of them. */
  fields?: string[];
  /** How many field names were left out of `fields`. */
  moreFields?: number;
}

/** What an ask asks, bounded so that history stays small whatever a handler asks (ask-description.ts). */
export interface AskDescription {
  /** When the ask was recorded (epoch ms): the wait for its answers began then. */
  askedAt: number;
  requests: AskedRequest[];
  /** How many requests were left out of `requests`. */
  moreRequests?: number;
}

/** Who started an exchange, as operators see it in Temporal: static summary, details, search attributes. */
export interface ExchangeOrigin {
  /** The client's `clientInfo`, when it sent one (name and version only). */
  client?: { name: string; version?: string };
  /** A legacy exchange's session, by its tag (`sessionRef`), never by its id. */
  session?: string;
  /** The protocol version the client speaks. */
  protocolVersion?: string;
  /** The tenant the caller's token names (TENANT_CLAIM): whose share of the workers its tasks take. */
  tenant?: string;
}

/** What the workflow keeps of a recorded outcome: enough to decide, small enough for history. */
export interface RoundSummary {
  round: number;
  kind: OutcomeKind;
  askKeys?: string[];
  /** An ask's bounded description, for the workflow's current details. Never carries answers. */
  ask?: AskDescription;
  sealedHandlerState?: string;
  errorCode?: number;
  /** The exchange's status after this round, as Postgres records it (the search attribute shows the same). */
  status?: ExchangeStatus;
  /** An ask's deadline (epoch ms): answers the API signals after it are refused. */
  deadlineAt?: number;
  /**
   * How long an ask waits for its answers (ms): the round timeout, or an addressed ask's own wait
   * (`elicitFrom`'s `waitMs`), so an expiry names the wait that applied. Absent from rounds recorded
   * before it was kept: the round timeout applies to what they say.
   */
  waitMs?: number;
  /** An addressed ask's questions: who may answer each key (lib/questions). */
  questions?: Record<string, Addressing>;
}

/** Answers to the ask of `round`, carried raw and keyed as they were asked. */
export interface RoundAnswers {
  round: number;
  responses: Record<string, unknown>;
  /** Digest of `responses`, so a repeated leg can be told from a conflicting one. */
  digest: string;
  /**
   * The capabilities the answering leg declared. In the modern era every request declares its
   * own, so the next round may only ask for what this leg's client can answer.
   */
  clientCapabilities?: Record<string, unknown>;
  /** What the answering leg listens for during the next round. */
  listening?: Listening;
  /** When the API signalled these answers (epoch ms): after the round's deadline, they are refused. */
  sentAt?: number;
  /** Set when these answers turn an MRTR exchange into a task (a tool whose task begins after its first input). */
  task?: TaskMode;
  /** Who answered each addressed question of the ask, by key (absent when the caller answered). */
  answeredBy?: Record<string, AnsweredBy[]>;
  /**
   * The ask's questions whose wait ended with no answer deciding them (`onExpiry: 'handler'`):
   * these "answers" are the expiry itself, handed to the next round as `ctx.expired`.
   */
  expired?: string[];
}

/** A notification a handler sent during a round, as stored and forwarded. */
export type ExchangeEvent =
  | { kind: 'progress'; progress: number; total?: number; message?: string }
  | { kind: 'log'; level: string; data: unknown; logger?: string }
  | { kind: 'close-stream' };

/** One key's answer, as a legacy client sends it: the raw result, or `{ error }`. */
export interface KeyAnswer {
  round: number;
  key: string;
  response: unknown;
  /** When the API signalled this answer (epoch ms); see `RoundAnswers.sentAt`. */
  sentAt?: number;
}

/** `terminated`: Temporal closed the workflow without it recording an ending (terminate, timeout, reset, retention). */
export type ExchangeStatus = 'running' | 'completed' | 'failed' | 'expired' | 'capped' | 'cancelled' | 'terminated';

/** A round's outcome as Postgres recorded it: the first write wins, so it is what every reader agrees on. */
export interface RoundRecord {
  exchangeId: string;
  round: number;
  outcome: RoundOutcome;
  answersDigest?: string;
  recordedAt: Date;
  /** An ask's deadline for its answers. */
  deadlineAt?: Date;
  /** Set by `recordRound` and `recordEnding` when this call wrote the row (absent when it stood already). */
  recordedNow?: true;
}
