/**
 * One entry of the evidence log: what a decision on a question was (an answer taken, or an attempt
 * refused), bound to the exact call it decides (method, target, a digest of the arguments, the
 * caller), to what the answerer was shown (the question's message and `shownDigest`, and the digest
 * the answer named), to who answered (as the service verified them) and through what, and to its
 * place in the log: `seq` and `prev` link it into the deployment's one chain, `exchangeSeq` and
 * `exchangePrev` into its exchange's, so an export of one exchange is complete on its own.
 *
 * The payload is signed as a JWS whose payload bytes are its JCS form (canonical-json.ts): the same
 * bytes a third party gets by canonicalizing what it parsed. Pure: the store (lib/db/evidence-log-pg.ts)
 * fills in the links and the time under its lock.
 */
import type { Refusal } from '../questions/answer-judgement';
import type { AnswerChannel, AnswererIdentity, ElicitAnswer, QuestionView } from '../questions/question';
import { digestOfJson } from './canonical-json';

/** The payload's `typ`: what a verifier expects to find. */
export const EVIDENCE_TYPE = 'durable-mcp/evidence';
export const EVIDENCE_VERSION = 1;

/**
 * Who answered, as the entry names them. `kind`, `acr`, `amr` and `authTime` are written when the
 * service knew them (a sign-in's ID token, a token's claims).
 */
export interface EvidenceAnswerer {
  id: string;
  issuer?: string;
  subject: string;
  name?: string;
  kind?: 'person' | 'service';
  scopes: string[];
  groups: string[];
  acr?: string;
  amr?: string[];
  /** When the answerer authenticated (ISO 8601), from `auth_time`. */
  authTime?: string;
}

export type EvidenceDecision =
  | {
      outcome: 'taken';
      action: ElicitAnswer['action'];
      /** Whether this answer decided the question (an "each of" needs one per group). */
      decided: boolean;
      /** The answer's id (the admin view's attempts, the signal the workflow took). */
      answerId: string;
      /** The digest of the elicitation result as it was taken (`{action, content}`), JCS SHA-256. */
      responseDigest: string;
      /** The `shownDigest` the answer named: what its answerer was shown. */
      shownDigest: string;
    }
  | {
      outcome: 'refused';
      action: ElicitAnswer['action'];
      refusal: Refusal;
      answerId: string;
      shownDigest: string;
    };

/** What an entry says, before the log links it. */
export interface EvidenceFacts {
  exchange: string;
  call: {
    method: string;
    target: string;
    /** JCS SHA-256 of the call's arguments (a resource read's are `{ uri }`), as the question shows them. */
    argumentsDigest: string;
    caller: { id: string; issuer?: string; subject: string };
  };
  question: { id: string; round: number; key: string; message: string; shownDigest: string };
  answerer: EvidenceAnswerer;
  channel: AnswerChannel;
  decision: EvidenceDecision;
  /** When the service took the attempt (the time its deadline was judged at), ISO 8601. */
  answeredAt: string;
  /** Refusals of this question past MAX_RECORDED_REFUSALS so far: counted, with no entry of their own. */
  unrecordedRefusals?: number;
}

/** Where an entry stands in the log: filled in by the store under the log's lock. */
export interface EvidenceLinks {
  seq: number;
  /** The hash (entryHash) of the entry before, in the whole log; null for the log's first. */
  prev: string | null;
  exchangeSeq: number;
  /** The hash of the exchange's entry before; null for the exchange's first. */
  exchangePrev: string | null;
  /** When the entry was appended (the database's clock, under the log's lock), ISO 8601. */
  loggedAt: string;
}

export type EvidencePayload = { typ: typeof EVIDENCE_TYPE; v: typeof EVIDENCE_VERSION } & EvidenceLinks & EvidenceFacts;

/** The fields of an answerer's identity evidence reads when the service recorded them. */
type IdentityDetails = Partial<{ kind: 'person' | 'service'; acr: string; amr: string[]; authTime: number }>;

const iso = (ms: number) => new Date(ms).toISOString();

function answererOf(by: AnswererIdentity): EvidenceAnswerer {
  const details = by as AnswererIdentity & IdentityDetails;
  return {
    id: by.id,
    ...(by.issuer !== undefined ? { issuer: by.issuer } : {}),
    subject: by.subject,
    ...(by.name !== undefined ? { name: by.name } : {}),
    ...(details.kind !== undefined ? { kind: details.kind } : {}),
    scopes: [...by.scopes],
    groups: [...by.groups],
    ...(typeof details.acr === 'string' ? { acr: details.acr } : {}),
    ...(Array.isArray(details.amr) ? { amr: [...details.amr] } : {}),
    // auth_time is seconds in a token; the identity may keep it as seconds or milliseconds.
    ...(typeof details.authTime === 'number' && Number.isFinite(details.authTime)
      ? { authTime: iso(details.authTime < 1e11 ? details.authTime * 1000 : details.authTime) }
      : {}),
  };
}

/** The question an attempt was made on, as the store read it under its lock. */
export type EvidenceQuestion = Pick<
  QuestionView,
  'id' | 'exchangeId' | 'round' | 'key' | 'method' | 'target' | 'arguments' | 'caller' | 'message' | 'shownDigest'
>;

export interface EvidenceAttempt {
  answerId: string;
  by: AnswererIdentity;
  via: AnswerChannel;
  response: ElicitAnswer;
  shownDigest: string;
  at: number;
}

export type EvidenceVerdict = { taken: true; decided: boolean } | { taken: false; refusal: Refusal };

/** The facts of one decision: the question it was on, the attempt, and what was decided. */
export function evidenceFactsOf(
  question: EvidenceQuestion,
  attempt: EvidenceAttempt,
  verdict: EvidenceVerdict,
  unrecordedRefusals = 0,
): EvidenceFacts {
  const { caller } = question;
  const common = { action: attempt.response.action, answerId: attempt.answerId, shownDigest: attempt.shownDigest };
  return {
    exchange: question.exchangeId,
    call: {
      method: question.method,
      target: question.target,
      argumentsDigest: digestOfJson(question.arguments),
      caller: {
        id: caller.id,
        ...(caller.issuer !== undefined ? { issuer: caller.issuer } : {}),
        subject: caller.subject,
      },
    },
    question: {
      id: question.id,
      round: question.round,
      key: question.key,
      message: question.message,
      shownDigest: question.shownDigest,
    },
    answerer: answererOf(attempt.by),
    channel: attempt.via,
    decision: verdict.taken
      ? { outcome: 'taken', ...common, decided: verdict.decided, responseDigest: digestOfJson(attempt.response) }
      : { outcome: 'refused', ...common, refusal: verdict.refusal },
    answeredAt: iso(attempt.at),
    ...(unrecordedRefusals > 0 ? { unrecordedRefusals } : {}),
  };
}

/** The payload an entry signs: its facts at its place in the log. */
export const evidencePayloadOf = (facts: EvidenceFacts, links: EvidenceLinks): EvidencePayload => ({
  typ: EVIDENCE_TYPE,
  v: EVIDENCE_VERSION,
  ...links,
  ...facts,
});
