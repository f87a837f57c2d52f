/**
 * Maps the legs of a modern multi-round-trip call onto its durable exchange.
 *
 * - A first leg (no requestState) starts a workflow and waits for round 1.
 * - A retry carrying `inputResponses` and an `ask` requestState answers that round: the answers are
 *   signalled once and the API waits for the next round. Sending the same leg again does not
 *   advance the exchange twice: it finds the next round already recorded and gets its outcome.
 *   Different answers to a round that was already answered are refused.
 * - When an outcome is not ready within the HTTP wait budget, the client gets a state-only
 *   `InputRequiredResult` (a `wait` requestState) and comes back for it, instead of the API
 *   holding the connection for the whole round.
 */
import { randomUUID } from 'node:crypto';
import type { ExchangeStore, RoundRecord } from '../../../lib/db/exchange-store';
import type { OutcomeWaiter } from '../../../lib/db/outcome-waiter';
import { digestJson } from '../../../lib/exchange/digest';
import type { Era, ExchangeMethod, Listening, OriginalRequest } from '../../../lib/exchange/types';
import { exchangeLogger, type Logger } from '../../../lib/log';
import { exchangeExpired } from '../../../lib/protocol/exchange-errors';
import {
  capacityExceeded,
  fromOutcome,
  invalidParams,
  invalidRequestState,
  tooLarge,
} from '../../../lib/protocol/error-catalog';
import type { RpcError } from '../../../lib/protocol/rpc-error';
import { RequestStateError, type RequestStateClaims, type RequestStateCodec } from '../../../lib/state/request-state';
import { workflowIdFor } from '../../../workflows/messages';
import type { ExchangeGateway } from './exchange-gateway';
import type { ExchangeReconciler } from './exchange-reconciler';

export interface ExchangeLeg {
  method: ExchangeMethod;
  target: string;
  /** The request params without `_meta`, `inputResponses` and `requestState`. */
  params: Record<string, unknown>;
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  clientCapabilities: Record<string, unknown>;
  principal: string;
  era: Era;
  /** What this leg listens for while its round runs (progress token, log level). */
  listening?: Listening;
}

export interface LegOptions {
  signal?: AbortSignal;
  /**
   * Called once the round this leg waits for is known, so the caller can follow its notifications
   * (after `afterEvent`, the last one an earlier leg of this client was sent).
   */
  onRound?: (exchangeId: string, round: number, afterEvent?: number) => void;
}

/** What a leg's round resolves to: its recorded outcome, or "not yet" with the round to come back for. */
export type RoundResult =
  | { kind: 'recorded'; record: RoundRecord }
  /** Not ready in time; `answersDigest` is this leg's answers, for the leg that comes back for it. */
  | { kind: 'pending'; exchangeId: string; round: number; answersDigest?: string };

/** What a requestState is bound to besides its exchange and round: the call, by its digest, and the caller. */
export interface LegBinding {
  requestDigest: string;
  principal: string;
}

/**
 * What a leg resolves to, with the binding it was verified or started with, so the requestState
 * minted for its answer is bound to the same digest (computed once per leg).
 */
export type LegResult = RoundResult & { binding: LegBinding };

export interface LegLimits {
  roundTimeoutMs: number;
  maxRounds: number;
  httpWaitMs: number;
  maxRoundInputBytes: number;
  maxTargetLength: number;
  maxRunningExchanges: number;
  maxInflightLegs: number;
  capacityRetryAfterS: number;
}

export interface ExchangeLegsDeps {
  gateway: ExchangeGateway;
  store: ExchangeStore;
  waiter: OutcomeWaiter;
  reconciler: ExchangeReconciler;
  requestState: RequestStateCodec;
  limits: LegLimits;
  log: Logger;
}

const jsonBytes = (value: unknown) => (value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value)));

/**
 * What one round's activity carries (arguments, answers, capabilities) must stay under Temporal's
 * payload limit with a margin, or the round could never be scheduled: refused here, before anything
 * reaches Temporal.
 */
function checkRoundInput(leg: ExchangeLeg, answers: unknown, limit: number): void {
  const size = jsonBytes(leg.params) + jsonBytes(answers) + jsonBytes(leg.clientCapabilities);
  if (size > limit)
    throw tooLarge("this round's input (arguments, inputResponses and client capabilities)", 'params', limit, size);
}

/** Digest of what identifies the call: method, target and its arguments. */
export function requestDigestOf(request: OriginalRequest): string {
  const { arguments: args } = request.params as { arguments?: unknown };
  return digestJson({ method: request.method, target: request.target, arguments: args ?? null });
}

/** The original request a leg carries. */
const requestOf = (leg: ExchangeLeg): OriginalRequest => ({
  method: leg.method,
  target: leg.target,
  params: leg.params,
});

/** The target names the workflow in Temporal (a search attribute, the summary): bounded before it gets there. */
function checkTarget(leg: ExchangeLeg, limit: number): void {
  const size = Buffer.byteLength(leg.target);
  const path = leg.method === 'resources/read' ? 'params.uri' : 'params.name';
  if (size > limit)
    throw invalidParams(`Invalid params: ${path} is ${size} bytes, over the limit of ${limit}`, { path, limit, size });
}

export function createExchangeLegs(deps: ExchangeLegsDeps) {
  const { gateway, store, waiter, reconciler, limits, log } = deps;
  let inflight = 0;

  /**
   * The round's outcome, or "come back". Before saying "come back", Temporal is asked whether the
   * workflow still runs: one that was terminated (or otherwise closed) gets its ending recorded, so
   * no client is told to come back forever.
   */
  async function awaitRound(exchangeId: string, round: number, options: LegOptions): Promise<RoundResult> {
    options.onRound?.(exchangeId, round);
    const record = await waiter.wait(exchangeId, round, limits.httpWaitMs, options.signal);
    if (record) return { kind: 'recorded', record };
    const ended = options.signal?.aborted ? undefined : await reconciler.reconcile(exchangeId);
    return ended && ended.round >= round ? { kind: 'recorded', record: ended } : { kind: 'pending', exchangeId, round };
  }

  /** The outcome of an answered round, unless these answers differ from the ones it took. */
  function answeredWith(record: RoundRecord, digest: string): RoundResult {
    if (record.answersDigest !== undefined && record.answersDigest !== digest) {
      throw invalidParams(
        `Round ${record.round - 1} of this exchange was already answered with different inputResponses`,
      );
    }
    return { kind: 'recorded', record };
  }

  /** Starts the exchange's workflow; the first round runs as soon as a worker takes it. */
  async function start(leg: ExchangeLeg, requestDigest: string, exchangeId: string = randomUUID()): Promise<string> {
    checkTarget(leg, limits.maxTargetLength);
    checkRoundInput(leg, leg.inputResponses, limits.maxRoundInputBytes);
    if ((await store.countRunning()) >= limits.maxRunningExchanges) {
      throw capacityExceeded('too many running exchanges', limits.maxRunningExchanges, limits.capacityRetryAfterS);
    }
    const request = requestOf(leg);
    const input = {
      exchangeId,
      era: leg.era,
      request,
      requestDigest,
      principal: leg.principal,
      clientCapabilities: leg.clientCapabilities,
      ...(leg.listening ? { listening: leg.listening } : {}),
      // Answers sent before any ask are carried to round 1: the handler reads what it knows.
      ...(leg.inputResponses ? { initialResponses: leg.inputResponses } : {}),
      roundTimeoutMs: limits.roundTimeoutMs,
      maxRounds: limits.maxRounds,
    };
    // The row exists before the workflow does, so an exchange Temporal ends at once still has a record to end.
    await store.createExchange(input, workflowIdFor(exchangeId));
    try {
      await gateway.start(input);
    } catch (error) {
      // Temporal refused or could not be reached: the client is told, and no half-started exchange stays behind.
      await store.forgetUnstarted(exchangeId).catch(() => undefined);
      throw error;
    }
    exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId), round: 1 }).info(
      { method: leg.method, target: leg.target, era: leg.era },
      'exchange started',
    );
    return exchangeId;
  }

  async function answerLeg(leg: ExchangeLeg, claims: RequestStateClaims, options: LegOptions): Promise<RoundResult> {
    const { exchangeId, round } = claims;
    const legLog = exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId), round });
    const ask = await store.readRound(exchangeId, round);
    if (!ask || ask.outcome.kind !== 'ask') {
      legLog.warn({ reason: 'no-ask' }, 'requestState rejected');
      throw invalidRequestState();
    }
    // Answers are carried raw; keys the ask did not name are ignored (spec: SHOULD ignore extras).
    const asked = Object.keys(ask.outcome.inputRequests);
    const responses = Object.fromEntries(
      Object.entries(leg.inputResponses ?? {}).filter(([key]) => asked.includes(key)),
    );
    const digest = digestJson(responses);

    const next = await store.readRound(exchangeId, round + 1);
    if (next) return answeredWith(next, digest);
    // The deadline is a rule: answers after it are refused here, before anything is signalled.
    if (ask.outcome.kind === 'ask' && ask.deadlineAt && Date.now() > ask.deadlineAt.getTime()) {
      legLog.info({ deadlineAt: ask.deadlineAt }, 'answers refused: the round deadline has passed');
      throw fromOutcome(exchangeExpired(exchangeId, round, ask.deadlineAt.getTime() - ask.recordedAt.getTime()));
    }
    checkRoundInput(leg, responses, limits.maxRoundInputBytes);

    const delivered = await gateway.sendAnswers(exchangeId, {
      round,
      responses,
      digest,
      clientCapabilities: leg.clientCapabilities,
      ...(leg.listening ? { listening: leg.listening } : {}),
    });
    legLog.info({ keys: Object.keys(responses), delivered }, 'answers signalled');
    if (!delivered) {
      // The workflow ended meanwhile: it expired (its ending is recorded), or Temporal ended it.
      const ended = (await store.readRound(exchangeId, round + 1)) ?? (await reconciler.reconcile(exchangeId));
      if (ended) return answeredWith(ended, digest);
    }
    const result = await awaitRound(exchangeId, round + 1, options);
    return result.kind === 'recorded' ? answeredWith(result.record, digest) : { ...result, answersDigest: digest };
  }

  /** A first leg starts the exchange; a retry answers its ask (or comes back for its outcome). */
  async function runLeg(leg: ExchangeLeg, requestDigest: string, options: LegOptions): Promise<RoundResult> {
    if (leg.requestState === undefined) return awaitRound(await start(leg, requestDigest), 1, options);

    let claims;
    try {
      claims = deps.requestState.verify(leg.requestState, { requestDigest, principal: leg.principal });
    } catch (error) {
      if (!(error instanceof RequestStateError)) throw error;
      log.warn({ reason: error.reason, method: leg.method, target: leg.target }, 'requestState rejected');
      throw invalidRequestState();
    }
    if (claims.kind === 'ask') return answerLeg(leg, claims, options);
    options.onRound?.(claims.exchangeId, claims.round, claims.afterEvent);
    const result = await awaitRound(claims.exchangeId, claims.round, { ...options, onRound: undefined });
    if (result.kind === 'pending') return { ...result, answersDigest: claims.answersDigest };
    return claims.answersDigest === undefined ? result : answeredWith(result.record, claims.answersDigest);
  }

  return {
    /** Starts the exchange of a first leg that answers elsewhere (a handshake-era call's stream). */
    start: (leg: ExchangeLeg, exchangeId?: string) => start(leg, requestDigestOf(requestOf(leg)), exchangeId),

    /** Runs one leg; at most `maxInflightLegs` wait in this process at once. */
    async run(leg: ExchangeLeg, options: LegOptions = {}): Promise<LegResult> {
      if (inflight >= limits.maxInflightLegs) {
        throw capacityExceeded(
          'too many requests in progress on this server',
          limits.maxInflightLegs,
          limits.capacityRetryAfterS,
        );
      }
      inflight += 1;
      try {
        // Digested once: the requestState is verified against it, a first leg's exchange records it,
        // and the requestState minted for this leg's answer is bound to it.
        const binding: LegBinding = { requestDigest: requestDigestOf(requestOf(leg)), principal: leg.principal };
        return { ...(await runLeg(leg, binding.requestDigest, options)), binding };
      } finally {
        inflight -= 1;
      }
    },
  };
}

export type ExchangeLegs = ReturnType<typeof createExchangeLegs>;

/** Ends the leg with the exchange's error, if its outcome is one. */
export function errorOf(record: RoundRecord): RpcError | undefined {
  return record.outcome.kind === 'error' ? fromOutcome(record.outcome.error) : undefined;
}
