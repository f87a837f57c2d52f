/**
 * The decisions a leg of a multi-round-trip call turns on, as pure functions of what Postgres and
 * the verified requestState say (the other files of this folder do the reading, signalling and waiting):
 *
 * - what a leg is: a first leg, an answer, or a visit that comes back for an outcome;
 * - what identifies the call (its request digest), and the size its target must stay under;
 * - what an answering leg is: a stale requestState (no ask at its round), a retry of a round that
 *   was already answered (with the same answers: its outcome; with different ones: refused), a late
 *   answer past the round's deadline, or fresh answers to signal;
 * - what a leg that waited gets: the round's outcome, or "come back".
 */
import type { RoundRecord } from '../exchange/types';
import { repeatOf } from './answer-repeats';
import { digestJson } from '../exchange/digest';
import { isLate, roundTimeoutOf } from './round-deadline';
import type { ExchangeMethod, OriginalRequest } from '../exchange/types';
import { invalidParams } from '../protocol/error-catalog';
import type { RpcError } from '../protocol/rpc-error';
import type { RequestStateClaims } from '../state/request-state';

/** What a leg's round resolves to: its recorded outcome, or "not yet" with the round to come back for. */
export type RoundResult =
  | { kind: 'recorded'; record: RoundRecord }
  /** Not ready in time; `answersDigest` is this leg's answers, for the leg that comes back for it. */
  | { kind: 'pending'; exchangeId: string; round: number; answersDigest?: string };

/**
 * What a leg is, from its verified requestState: none starts the exchange; an `ask` one answers
 * that round's ask; a `wait` one comes back for the outcome it was told to come back for.
 */
export type LegKind =
  | { kind: 'first' }
  | { kind: 'answer'; claims: RequestStateClaims }
  | { kind: 'come-back'; claims: RequestStateClaims };

export function classifyLeg(claims: RequestStateClaims | undefined): LegKind {
  if (!claims) return { kind: 'first' };
  return { kind: claims.kind === 'ask' ? 'answer' : 'come-back', claims };
}

/** Digest of what identifies the call: method, target and its arguments. */
export function requestDigestOf(request: OriginalRequest): string {
  const { arguments: args } = request.params as { arguments?: unknown };
  return digestJson({ method: request.method, target: request.target, arguments: args ?? null });
}

/** The target names the workflow in Temporal (a search attribute, the summary): bounded before it gets there. */
export function targetTooLong(method: ExchangeMethod, target: string, limit: number): RpcError | undefined {
  const size = Buffer.byteLength(target);
  const path = method === 'resources/read' ? 'params.uri' : 'params.name';
  if (size <= limit) return undefined;
  return invalidParams(`Invalid params: ${path} is ${size} bytes, over the limit of ${limit}`, { path, limit, size });
}

/**
 * Whether a recorded round was reached by answers other than this leg's (`digest`): the duplicate
 * rule's fast pre-check (lib/exchange/answer-repeats.ts). Endings recorded without answers (an
 * expiry, a cancel) carry no digest and stand for every leg.
 */
export function reachedByOtherAnswers(record: RoundRecord, digest: string | undefined): boolean {
  return repeatOf(record.answersDigest, digest) === 'different';
}

/** The refusal (-32602) of answers to `round` that differ from the ones it already took. */
export const answeredDifferently = (round: number) =>
  invalidParams(`Round ${round} of this exchange was already answered with different inputResponses`);

/** A recorded round reached by answering the one before it: its outcome for this leg, unless other answers reached it. */
export function answeredWith(record: RoundRecord, digest: string | undefined): RoundResult {
  if (reachedByOtherAnswers(record, digest)) throw answeredDifferently(record.round - 1);
  return { kind: 'recorded', record };
}

/** A leg's answers to an ask: carried raw, only under the keys it asked for (extras are ignored, as the spec says). */
export function answersTo(
  inputRequests: Record<string, unknown>,
  inputResponses: Record<string, unknown> | undefined,
): { responses: Record<string, unknown>; digest: string } {
  const asked = Object.keys(inputRequests);
  const responses = Object.fromEntries(Object.entries(inputResponses ?? {}).filter(([key]) => asked.includes(key)));
  return { responses, digest: digestJson(responses) };
}

/** What an answering leg (an `ask` requestState for `round`) is, given the records of that round and the next. */
export type AnswerLeg =
  /** No ask is recorded at that round: the requestState is refused like any invalid one. */
  | { kind: 'stale' }
  /** The round was answered already, by this leg's answers (a retry): the next round's outcome. */
  | { kind: 'retry'; record: RoundRecord }
  /** The round was answered already, with different answers: refused (`answeredDifferently`). */
  | { kind: 'mismatch' }
  /** The round's deadline has passed and nothing answered it: refused as expired, before anything is signalled. */
  | { kind: 'late'; deadlineAt: Date; roundTimeoutMs: number }
  /** Answers to signal to the workflow. */
  | { kind: 'fresh'; responses: Record<string, unknown>; digest: string };

export function classifyAnswer(facts: {
  ask: RoundRecord | undefined;
  next: RoundRecord | undefined;
  inputResponses: Record<string, unknown> | undefined;
  now: number;
}): AnswerLeg {
  const { ask, next } = facts;
  if (!ask || ask.outcome.kind !== 'ask') return { kind: 'stale' };
  const { responses, digest } = answersTo(ask.outcome.inputRequests, facts.inputResponses);
  if (next) return reachedByOtherAnswers(next, digest) ? { kind: 'mismatch' } : { kind: 'retry', record: next };
  // The deadline's fast pre-check: the workflow is its authority (lib/exchange/round-deadline.ts).
  if (ask.deadlineAt && isLate(ask.deadlineAt.getTime(), facts.now))
    return {
      kind: 'late',
      deadlineAt: ask.deadlineAt,
      roundTimeoutMs: roundTimeoutOf(ask.deadlineAt.getTime(), ask.recordedAt.getTime()),
    };
  return { kind: 'fresh', responses, digest };
}

/**
 * What a leg that waited for `round` gets when no outcome came within its wait: the ending the
 * reconciler found (an exchange Temporal closed), if it reaches that round; else "come back".
 */
export function afterWait(exchangeId: string, round: number, ended: RoundRecord | undefined): RoundResult {
  return ended && ended.round >= round ? { kind: 'recorded', record: ended } : { kind: 'pending', exchangeId, round };
}

/**
 * What a leg gets that waited for the round its answers (`answersDigest`, if it sent any) lead to,
 * having sent them now or on an earlier visit: the round's outcome, unless other answers reached it;
 * if not ready, "come back", carrying the digest for the visit that comes back.
 */
export function awaitedWith(result: RoundResult, answersDigest: string | undefined): RoundResult {
  if (result.kind === 'pending') return { ...result, answersDigest };
  return answeredWith(result.record, answersDigest);
}
