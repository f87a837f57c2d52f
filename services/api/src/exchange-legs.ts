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
import { invalidParams, invalidRequestState, RpcError } from '../../../lib/protocol/rpc-error';
import { RequestStateError, type RequestStateClaims, type RequestStateCodec } from '../../../lib/state/request-state';
import { workflowIdFor } from '../../../workflows/messages';
import type { ExchangeGateway } from './exchange-gateway';

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

/** What a leg resolves to: a round's recorded outcome, or "not yet" with the round to come back for. */
export type LegResult =
  | { kind: 'recorded'; record: RoundRecord }
  /** Not ready in time; `answersDigest` is this leg's answers, for the leg that comes back for it. */
  | { kind: 'pending'; exchangeId: string; round: number; answersDigest?: string };

export interface ExchangeLegsDeps {
  gateway: ExchangeGateway;
  store: ExchangeStore;
  waiter: OutcomeWaiter;
  requestState: RequestStateCodec;
  limits: { roundTimeoutMs: number; maxRounds: number; httpWaitMs: number };
  log: Logger;
}

/** Digest of what identifies the call: method, target and its arguments. */
export function requestDigestOf(request: OriginalRequest): string {
  const { arguments: args } = request.params as { arguments?: unknown };
  return digestJson({ method: request.method, target: request.target, arguments: args ?? null });
}

export function createExchangeLegs(deps: ExchangeLegsDeps) {
  const { gateway, store, waiter, limits, log } = deps;

  async function awaitRound(exchangeId: string, round: number, options: LegOptions): Promise<LegResult> {
    options.onRound?.(exchangeId, round);
    const record = await waiter.wait(exchangeId, round, limits.httpWaitMs, options.signal);
    return record ? { kind: 'recorded', record } : { kind: 'pending', exchangeId, round };
  }

  /** The outcome of an answered round, unless these answers differ from the ones it took. */
  function answeredWith(record: RoundRecord, digest: string): LegResult {
    if (record.answersDigest !== undefined && record.answersDigest !== digest) {
      throw invalidParams(`Round ${record.round - 1} of this exchange was already answered with different inputResponses`);
    }
    return { kind: 'recorded', record };
  }

  /** Starts the exchange's workflow; the first round runs as soon as a worker takes it. */
  async function start(leg: ExchangeLeg, exchangeId: string = randomUUID()): Promise<string> {
    const request: OriginalRequest = { method: leg.method, target: leg.target, params: leg.params };
    const requestDigest = requestDigestOf(request);
    await gateway.start({
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
    });
    exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId), round: 1 }).info(
      { method: leg.method, target: leg.target, era: leg.era },
      'exchange started',
    );
    return exchangeId;
  }

  async function answerLeg(leg: ExchangeLeg, claims: RequestStateClaims, options: LegOptions): Promise<LegResult> {
    const { exchangeId, round } = claims;
    const legLog = exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId), round });
    const ask = await store.readRound(exchangeId, round);
    if (!ask || ask.outcome.kind !== 'ask') {
      legLog.warn({ reason: 'no-ask' }, 'requestState rejected');
      throw invalidRequestState();
    }
    if (claims.handlerState !== ask.outcome.sealedHandlerState) {
      legLog.warn({ reason: 'handler-state-mismatch' }, 'requestState rejected');
      throw invalidRequestState();
    }
    // Answers are carried raw; keys the ask did not name are ignored (spec: SHOULD ignore extras).
    const asked = Object.keys(ask.outcome.inputRequests);
    const responses = Object.fromEntries(Object.entries(leg.inputResponses ?? {}).filter(([key]) => asked.includes(key)));
    const digest = digestJson(responses);

    const next = await store.readRound(exchangeId, round + 1);
    if (next) return answeredWith(next, digest);

    const delivered = await gateway.sendAnswers(exchangeId, {
      round,
      responses,
      digest,
      clientCapabilities: leg.clientCapabilities,
      ...(leg.listening ? { listening: leg.listening } : {}),
    });
    legLog.info({ keys: Object.keys(responses), delivered }, 'answers signalled');
    if (!delivered) {
      // The workflow ended meanwhile (it expired, say): its last outcome is recorded.
      const ended = await store.readRound(exchangeId, round + 1);
      if (ended) return answeredWith(ended, digest);
    }
    const result = await awaitRound(exchangeId, round + 1, options);
    return result.kind === 'recorded' ? answeredWith(result.record, digest) : { ...result, answersDigest: digest };
  }

  return {
    start,

    async run(leg: ExchangeLeg, options: LegOptions = {}): Promise<LegResult> {
      const request: OriginalRequest = { method: leg.method, target: leg.target, params: leg.params };
      const requestDigest = requestDigestOf(request);
      if (leg.requestState === undefined) return awaitRound(await start(leg), 1, options);

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
    },
  };
}

export type ExchangeLegs = ReturnType<typeof createExchangeLegs>;

/** Ends the leg with the exchange's error, if its outcome is one. */
export function errorOf(record: RoundRecord): RpcError | undefined {
  return record.outcome.kind === 'error' ? RpcError.from(record.outcome.error) : undefined;
}
