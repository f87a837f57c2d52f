/**
 * One exchange driven in process (drive.ts): its rounds' records (what Postgres would hold), the
 * workflow's own state (workflows/exchange-state.ts) and a clock a test moves with `afterMs`. Each
 * round runs through the worker's execution and rules; each answer passes the API's checks, then
 * the workflow's, and the round deadline is lib/exchange/round-deadline.ts's.
 */
import { randomBytes } from 'node:crypto';
import type { InputRequest } from '@modelcontextprotocol/server';
import type { AnsweredBy, HandlerSet } from '@durable-mcp/handlers';
import {
  applyAskRules,
  askWaitMs,
  openHandlerState,
  roundResponses,
  summarize,
  unverifiableHandlerState,
} from '../../activities/round-rules';
import { executeHandler } from '../../activities/handler-execution';
import { answeredDifferently, classifyAnswer, requestDigestOf } from '../api/src/legs/leg-decisions';
import type { RoundRecord } from '../../lib/db/exchange-store';
import { ANONYMOUS_PRINCIPAL, type Principal } from '../../lib/exchange/principal';
import { deadlineOf, isLate } from '../../lib/exchange/round-deadline';
import type { ExchangeInput, OriginalRequest, RoundOutcome } from '../../lib/exchange/types';
import { fromOutcome, invalidRequestState } from '../../lib/protocol/error-catalog';
import { exchangeExpired } from '../../lib/protocol/exchange-errors';
import { createHandlerStateCodec, type HandlerStateCodec } from '../../lib/state/handler-state';
import { createRequestStateCodec, RequestStateError, type RequestStateCodec } from '../../lib/state/request-state';
import { SealError, createSealer } from '../../lib/state/sealer';
import {
  acceptAnswers,
  initialState,
  mayAsk,
  recordRound,
  takeAnswers,
  type ExchangeState,
} from '../../workflows/exchange-state';
import {
  DEFAULT_MAX_QUESTION_WAIT_MS,
  driveInput,
  ended,
  handlerTimeoutOf,
  notifyInto,
  refusal,
  REQUEST_STATE_TTL_MS,
  silent,
  toJson,
} from './drive-steps';
import type { Answerer, AnswerOptions, DriveOptions, HandlerNotification, Step } from './drive-types';
import { answererIdentity, answerQuestions } from './driven-questions';
import type { ElicitAnswer } from '../../lib/questions/question';

/** One exchange: its rounds' records (what Postgres would hold), the workflow's state and a clock. */
export class Exchange {
  private readonly state: ExchangeState;
  private readonly maxQuestionWaitMs: number;
  private readonly records = new Map<number, RoundRecord>();
  private readonly steps = new Map<number, Step<unknown>>();
  private readonly requestState: RequestStateCodec;
  private readonly handlerState: HandlerStateCodec;
  private readonly input: ExchangeInput;
  private readonly principal: Principal;
  private readonly binding: { requestDigest: string; principal: string };
  /** The harness's clock: real time when the exchange started, plus every `afterMs` since. */
  private elapsedMs = 0;
  private readonly startedAt = Date.now();
  private sealedHandlerState: string | undefined;

  constructor(
    private readonly set: HandlerSet,
    request: OriginalRequest,
    exchangeId: string,
    options: DriveOptions,
  ) {
    // A throwaway key: what a test's state can be opened with lives and dies with this exchange.
    const sealer = createSealer([{ kid: 'test', key: randomBytes(32) }]);
    this.requestState = createRequestStateCodec(sealer, REQUEST_STATE_TTL_MS, () => this.now());
    this.handlerState = createHandlerStateCodec(sealer);
    this.principal = options.principal ?? ANONYMOUS_PRINCIPAL;
    this.state = initialState(this.principal.id);
    this.maxQuestionWaitMs = options.maxQuestionWaitMs ?? DEFAULT_MAX_QUESTION_WAIT_MS;
    this.input = driveInput(set, request, exchangeId, options, this.principal);
    this.binding = { requestDigest: requestDigestOf(request), principal: this.principal.id };
  }

  private now(): number {
    return this.startedAt + this.elapsedMs;
  }

  start<R>(): Promise<Step<R>> {
    return this.runRound<R>(1, undefined, this.input.clientCapabilities, []);
  }

  /** Runs round `round`'s handler as the worker's round activity does, and records its outcome. */
  private async runRound<R>(
    round: number,
    answers:
      { responses: Record<string, unknown>; digest: string; answeredBy?: Record<string, AnsweredBy[]> } | undefined,
    capabilities: Record<string, unknown>,
    ignoredKeys: string[],
  ): Promise<Step<R>> {
    const { exchangeId } = this.input;
    const notifications: HandlerNotification[] = [];
    let outcome: RoundOutcome;
    let handlerState: string | undefined;
    try {
      const requestState = openHandlerState(this.handlerState, this.sealedHandlerState, { exchangeId, round });
      outcome = await executeHandler(
        this.set,
        this.input,
        {
          exchangeId,
          round,
          inputResponses: roundResponses(this.input, round, answers?.responses),
          ...(answers?.answeredBy ? { answeredBy: answers.answeredBy } : {}),
          requestState,
          clientCapabilities: capabilities,
          principal: this.principal,
          log: silent,
          signal: new AbortController().signal,
          ...notifyInto(notifications),
        },
        handlerTimeoutOf(this.input),
      );
      if (outcome.kind === 'ask') handlerState = outcome.sealedHandlerState;
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      outcome = { kind: 'error', error: unverifiableHandlerState() };
    }
    outcome = applyAskRules(outcome, {
      exchangeId,
      round,
      maxRounds: this.input.maxRounds,
      capabilities,
      mayAsk: mayAsk(this.state, this.input.maxRounds),
      handlerState: this.handlerState,
      roundTimeoutMs: this.input.roundTimeoutMs,
      maxQuestionWaitMs: this.maxQuestionWaitMs,
    });
    const recordedAt = new Date(this.now());
    const record: RoundRecord = {
      exchangeId,
      round,
      outcome,
      ...(answers ? { answersDigest: answers.digest } : {}),
      recordedAt,
      ...(outcome.kind === 'ask'
        ? {
            deadlineAt: new Date(
              deadlineOf(
                recordedAt.getTime(),
                askWaitMs(outcome.inputRequests, {
                  roundTimeoutMs: this.input.roundTimeoutMs,
                  maxQuestionWaitMs: this.maxQuestionWaitMs,
                }),
              ),
            ),
          }
        : {}),
    };
    this.records.set(round, record);
    const summary = summarize(record, outcome);
    recordRound(this.state, summary);
    this.sealedHandlerState = summary.sealedHandlerState;
    const step = this.stepOf<R>(record, notifications, ignoredKeys, handlerState);
    this.steps.set(round, step as Step<unknown>);
    return step;
  }

  private stepOf<R>(
    record: RoundRecord,
    notifications: HandlerNotification[],
    ignoredKeys: string[],
    handlerState?: string,
  ): Step<R> {
    const { outcome, round } = record;
    if (outcome.kind !== 'ask')
      return ended<R>(record.exchangeId, round, this.state.asks, outcome, notifications, ignoredKeys);
    const requestState = this.requestState.mint({ exchangeId: record.exchangeId, round, kind: 'ask', ...this.binding });
    return {
      exchangeId: record.exchangeId,
      round,
      kind: 'ask',
      ask: {
        inputRequests: outcome.inputRequests as Record<string, InputRequest>,
        requestState,
        ...(handlerState !== undefined ? { handlerState } : {}),
      },
      refused: false,
      ended: false,
      ignoredKeys,
      notifications,
      asks: this.state.asks,
      answer: (responses, options = {}) =>
        this.answer<R>(responses, { ...options, requestState: options.requestState ?? requestState }),
      answerAs: (answerer, responses, options = {}) => this.answerAs<R>(record, answerer, responses, options),
    };
  }

  /** Answers the questions of `ask` as `answerer` (driven-questions.ts), then runs the next round once they are decided. */
  private async answerAs<R>(
    ask: RoundRecord,
    answerer: Answerer,
    responses: Record<string, unknown>,
    options: { afterMs?: number },
  ): Promise<Step<R>> {
    this.elapsedMs += Math.max(0, options.afterMs ?? 0);
    this.fireTimers();
    const error = answerQuestions(
      this.state,
      this.input,
      ask,
      answererIdentity(answerer),
      responses as Record<string, ElicitAnswer>,
      this.now(),
    );
    if (error) return refusal<R>(this.input.exchangeId, ask.round, this.state.asks, error);
    if (this.state.pending === undefined) return this.steps.get(ask.round) as Step<R>;
    const taken = takeAnswers(this.state);
    return this.runRound<R>(ask.round + 1, taken, this.input.clientCapabilities, []);
  }

  /** The round timer: an ask whose deadline has passed with no answers ends the exchange as expired. */
  private fireTimers(): void {
    const round = this.state.awaiting;
    if (round === undefined || !isLate(this.state.deadlineAt, this.now())) return;
    const outcome: RoundOutcome = {
      kind: 'error',
      error: exchangeExpired(this.input.exchangeId, round, this.input.roundTimeoutMs),
    };
    const record: RoundRecord = {
      exchangeId: this.input.exchangeId,
      round: round + 1,
      outcome,
      recordedAt: new Date(this.now()),
    };
    this.records.set(round + 1, record);
    recordRound(this.state, summarize(record));
  }

  /** A retry that answers an ask, through the API's checks, then the workflow's. */
  private async answer<R>(
    responses: Record<string, unknown>,
    options: AnswerOptions & { requestState: string },
  ): Promise<Step<R>> {
    this.elapsedMs += Math.max(0, options.afterMs ?? 0);
    let round: number;
    try {
      const claims = this.requestState.verify(options.requestState, this.binding);
      // A requestState of another exchange opens only with that exchange's key: here, it cannot.
      if (claims.exchangeId !== this.input.exchangeId || claims.kind !== 'ask') throw new RequestStateError('claims');
      round = claims.round;
    } catch (error) {
      if (!(error instanceof RequestStateError)) throw error;
      return refusal<R>(this.input.exchangeId, this.state.round, this.state.asks, toJson(invalidRequestState()));
    }
    this.fireTimers();
    const ask = this.records.get(round);
    const next = this.records.get(round + 1);
    const asked = ask?.outcome.kind === 'ask' ? Object.keys(ask.outcome.inputRequests) : [];
    const ignoredKeys = Object.keys(responses).filter((key) => !asked.includes(key));
    const verdict = classifyAnswer({ ask, next, inputResponses: responses, now: this.now() });
    switch (verdict.kind) {
      case 'stale':
        return refusal<R>(this.input.exchangeId, round, this.state.asks, toJson(invalidRequestState()));
      case 'mismatch':
        return refusal<R>(this.input.exchangeId, round, this.state.asks, toJson(answeredDifferently(round)));
      case 'retry': {
        // The same leg again: the outcome it had, without running anything twice.
        const step = this.steps.get(round + 1) as Step<R> | undefined;
        return step ? { ...step, ignoredKeys, notifications: [] } : this.stepOf<R>(verdict.record, [], ignoredKeys);
      }
      case 'late':
        return refusal<R>(
          this.input.exchangeId,
          round,
          this.state.asks,
          toJson(fromOutcome(exchangeExpired(this.input.exchangeId, round, verdict.roundTimeoutMs))),
        );
      case 'fresh':
        break;
    }
    const capabilities = (options.capabilities ?? this.input.clientCapabilities) as Record<string, unknown>;
    const accepted = acceptAnswers(this.state, {
      round,
      responses: verdict.responses,
      digest: verdict.digest,
      clientCapabilities: capabilities,
      sentAt: this.now(),
    });
    if (accepted !== 'accepted')
      throw new Error(`round ${round}: the exchange did not take these answers (${accepted})`);
    const taken = takeAnswers(this.state);
    return this.runRound<R>(round + 1, taken, capabilities, ignoredKeys);
  }
}
