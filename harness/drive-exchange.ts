/**
 * One exchange driven in process (drive.ts): its rounds' records (what Postgres would hold), the
 * workflow's own state (lib/exchange-rules/exchange-state.ts) and a clock a test moves with
 * `afterMs`. Each round runs through the worker's own round pipeline (activities/round-pipeline.ts);
 * each answer passes the API's checks, then the workflow's (drive-answers.ts).
 */
import { randomBytes } from 'node:crypto';
import type { InputRequest } from '@modelcontextprotocol/server';
import type { HandlerSet } from '@durable-mcp/handlers';
import { summarize } from '../lib/exchange-rules/round-rules';
import { createRoundPipeline } from '../activities/round-pipeline';
import { requestDigestOf } from '../lib/exchange-rules/leg-rules';
import type { RoundRecord } from '../lib/exchange/types';
import { ANONYMOUS_PRINCIPAL, personIdOf, type Principal } from '../lib/exchange/principal';
import { isLate } from '../lib/exchange-rules/round-deadline';
import type { ExchangeInput, OriginalRequest, RoundAnswers, RoundOutcome } from '../lib/exchange/types';
import { expireAsk } from '../lib/exchange-rules/expired-ask';
import { expiryReachesHandler } from '../lib/questions/question-wait';
import { exchangeExpired } from '../lib/protocol/exchange-errors';
import { createHandlerStateCodec, type HandlerStateCodec } from '../lib/state/handler-state';
import { createRequestStateCodec, type RequestStateCodec } from '../lib/state/request-state';
import { createSealer } from '../lib/state/sealer';
import { initialState, mayAsk, recordRound, type ExchangeState } from '../lib/exchange-rules/exchange-state';
import { answerAsAddressee, answerRetry, type AnsweredExchange } from './drive-answers';
import {
  DEFAULT_MAX_QUESTION_WAIT_MS,
  driveInput,
  ended,
  handlerTimeoutOf,
  notifyInto,
  REQUEST_STATE_TTL_MS,
  silent,
} from './drive-steps';
import type { DriveOptions, HandlerNotification, Step } from './drive-types';

/** One exchange: its rounds' records (what Postgres would hold), the workflow's state and a clock. */
export class Exchange {
  private readonly state: ExchangeState;
  private readonly pipeline: ReturnType<typeof createRoundPipeline>;
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
    this.state = initialState(this.principal.id, personIdOf(this.principal));
    this.pipeline = createRoundPipeline({
      handlers: set,
      handlerState: this.handlerState,
      maxQuestionWaitMs: options.maxQuestionWaitMs ?? DEFAULT_MAX_QUESTION_WAIT_MS,
    });
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
    answers: Pick<RoundAnswers, 'responses' | 'digest' | 'answeredBy' | 'expired'> | undefined,
    capabilities: Record<string, unknown>,
    ignoredKeys: string[],
  ): Promise<Step<R>> {
    const notifications: HandlerNotification[] = [];
    const { record, summary, handlerState } = await this.pipeline.runPipeline({
      exchange: this.input,
      round,
      answers: answers?.responses,
      ...(answers?.answeredBy ? { answeredBy: answers.answeredBy } : {}),
      ...(answers?.expired ? { expired: answers.expired } : {}),
      capabilities,
      sealedHandlerState: this.sealedHandlerState,
      mayAsk: mayAsk(this.state, this.input.maxRounds),
      log: silent,
      signal: new AbortController().signal,
      notifiers: notifyInto(notifications),
      timeoutMs: handlerTimeoutOf(this.input),
      now: () => this.now(),
      // What Postgres would hold: the workflow records an expiry's round without a digest.
      record: async ({ outcome, deadlineAt }) => ({
        exchangeId: this.input.exchangeId,
        round,
        outcome,
        ...(answers && !answers.expired ? { answersDigest: answers.digest } : {}),
        recordedAt: new Date(this.now()),
        ...(deadlineAt ? { deadlineAt } : {}),
      }),
    });
    this.records.set(round, record);
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
        answerRetry<R>(this.answering(), responses, { ...options, requestState: options.requestState ?? requestState }),
      answerAs: (answerer, responses, options = {}) =>
        answerAsAddressee<R>(this.answering(), record, answerer, responses, options),
      expire: () => this.expire<R>(record),
    };
  }

  /**
   * The round timer: an ask whose deadline has passed with no answers ends the exchange as expired,
   * or, when its questions leave their expiry to the handler (`onExpiry: 'handler'`), runs the next
   * round with `ctx.expired` (expired-ask.ts), as the workflow does.
   */
  private async fireTimers(): Promise<void> {
    const round = this.state.awaiting;
    if (round === undefined || !isLate(this.state.deadlineAt, this.now())) return;
    const ask = this.records.get(round)!;
    if (expiryReachesHandler(summarize(ask).questions)) {
      const { expired, answeredBy, responses } = expireAsk(this.state);
      await this.runRound(
        round + 1,
        { responses, digest: '', expired, ...(answeredBy ? { answeredBy } : {}) },
        this.input.clientCapabilities,
        [],
      );
      return;
    }
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

  /** Lets the wait of the ask recorded at `ask` run out, nobody answering: the step its expiry leads to. */
  private async expire<R>(ask: RoundRecord): Promise<Step<R>> {
    if (this.state.awaiting === ask.round && ask.deadlineAt)
      this.elapsedMs = Math.max(this.elapsedMs, ask.deadlineAt.getTime() - this.startedAt + 1);
    await this.fireTimers();
    const next = this.steps.get(ask.round + 1) as Step<R> | undefined;
    if (next) return next;
    const record = this.records.get(ask.round + 1);
    if (!record) throw new Error(`round ${ask.round}: its ask no longer waits, and nothing followed it`);
    return this.stepOf<R>(record, [], []);
  }

  /** What the answer legs (drive-answers.ts) read and move of this exchange. */
  private answering(): AnsweredExchange {
    return {
      input: this.input,
      state: this.state,
      requestState: this.requestState,
      binding: this.binding,
      records: this.records,
      steps: this.steps,
      now: () => this.now(),
      advance: (ms) => (this.elapsedMs += ms),
      fireTimers: () => this.fireTimers(),
      stepOf: (record, ignoredKeys) => this.stepOf(record, [], ignoredKeys),
      runRound: (round, answers, capabilities, ignoredKeys) => this.runRound(round, answers, capabilities, ignoredKeys),
    };
  }
}
