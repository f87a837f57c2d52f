/**
 * One round of an exchange: re-run the handler from the top with the original request, the
 * answers to the previous ask and its own state, then record the outcome.
 *
 * Idempotent by construction: the outcome row of (exchange, round) is written once, and a retried
 * activity (a worker killed after recording, say) finds it and returns it without running the
 * handler again, so the workflow and Postgres never disagree about a round.
 */
import { withApprovals } from '../lib/evidence/approvals-meta';
import { workflowIdFor } from '../lib/exchange-client/workflow-messages';
import { principalOf } from '../lib/exchange/principal';
import type { ExchangeInput, Listening, RoundOutcome, RoundSummary } from '../lib/exchange/types';
import { deadlineOf } from '../lib/exchange-rules/round-deadline';
import { roundCrashed } from '../lib/protocol/exchange-errors';
import { SealError } from '../lib/state/sealer';
import type { ExchangeStore } from '../lib/db/exchange-store';
import type { RoundRecord } from '../lib/exchange/types';
import type { AnsweredBy, HandlerSet } from '@durable-mcp/handlers';
import type { HandlerStateCodec } from '../lib/state/handler-state';
import { exchangeLogger, type Logger } from '../lib/log';
import { classifyFailure } from './failure-class';
import { executeHandler } from './handler-execution';
import {
  applyAskRules,
  askWaitMs,
  openHandlerState,
  roundResponses,
  summarize,
  unverifiableHandlerState,
} from '../lib/exchange-rules/round-rules';
import { activityAttempt, cancellationSignal, isLocalActivity, keepHeartbeating } from './heartbeat';
import { createRoundNotifier } from './round-notifier';
import { observeRound } from '../lib/metrics/worker-metrics';
import { inStepSpan, STEP_SPANS } from '../lib/tracing/step-span';

/** How often a round running as a regular activity heartbeats; the workflow's heartbeat timeout is a few of these. */
export const HEARTBEAT_EVERY_MS = 1_000;

export interface RunRoundInput {
  exchange: ExchangeInput;
  round: number;
  answers?: Record<string, unknown>;
  answersDigest?: string;
  /** Who answered each addressed question of the previous ask (the handler's `ctx.answeredBy`). */
  answeredBy?: Record<string, AnsweredBy[]>;
  /** The previous ask's questions whose wait ended unanswered, when its handler decides what that means (`ctx.expired`). */
  expired?: string[];
  /** Capabilities declared by the leg that answered the previous ask, if it declared any. */
  clientCapabilities?: Record<string, unknown>;
  /** What the answering leg listens for during this round. */
  listening?: Listening;
  /** The handler state sealed with the previous round's ask. */
  sealedHandlerState?: string;
  /** False once the exchange has used its asks: another ask ends it. */
  mayAsk: boolean;
  /**
   * Set when the workflow knows no earlier attempt of the task scheduling this round ran it
   * (workflows/first-start.ts): a first attempt then neither looks for the round's record nor
   * counts its start. Absent, both are done.
   */
  firstStart?: true;
}

export interface RoundDeps {
  store: ExchangeStore;
  handlers: HandlerSet;
  /** The version of `handlers` (cli/start/handler-version.ts), compared with the one each exchange recorded. */
  handlerVersion?: string;
  handlerState: HandlerStateCodec;
  log: Logger;
  /** How long one handler execution may take before its exchange ends with an error, as a regular activity. */
  handlerTimeoutMs: number;
  /** The same bound for a round that runs as a local activity (inside its workflow task). */
  localHandlerTimeoutMs: number;
  /** Retried attempts that may start a round's handler before the round ends its exchange. */
  maxHandlerAttempts: number;
  /** The longest a question addressed to someone else may wait. */
  maxQuestionWaitMs: number;
}

export { summarize } from '../lib/exchange-rules/round-rules';

const toParts = (begun: { recorded: RoundRecord } | { starts: number }) =>
  'recorded' in begun ? { recorded: begun.recorded, starts: undefined } : { recorded: undefined, starts: begun.starts };

export function createRunRound(deps: RoundDeps) {
  return async function runRound(input: RunRoundInput): Promise<RoundSummary> {
    const { exchange, round } = input;
    const workflowId = workflowIdFor(exchange.exchangeId);
    const log = exchangeLogger(deps.log, { exchangeId: exchange.exchangeId, workflowId, round });

    const stopHeartbeats = keepHeartbeating(HEARTBEAT_EVERY_MS);
    try {
      return await runOnce(input, log, workflowId);
    } catch (error) {
      return classifyFailure(error);
    } finally {
      stopHeartbeats();
    }
  };

  async function runOnce(input: RunRoundInput, log: Logger, workflowId: string): Promise<RoundSummary> {
    const { exchange, round } = input;
    // A handler that kills its worker fails every attempt the same way: past MAX_HANDLER_ATTEMPTS
    // retried starts, the round ends its exchange. A regular activity knows a retry by its attempt
    // number, so only retries count a start. A local activity cannot: the workflow task that runs a
    // round again after its worker died starts it at attempt 1, so every start is counted (in the
    // same round trip that looks for the round's record) and all but the first are retries.
    // A first start the workflow vouches for has no record to find and no start before it to
    // count: the round is one Postgres round trip, its record. If this start dies with its worker,
    // the retry counts from the next start, so such a handler runs once more than the bound.
    const attempt = activityAttempt();
    const local = isLocalActivity();
    const firstStart = input.firstStart === true && attempt === 1;
    let recorded: RoundRecord | undefined;
    let starts: number | undefined;
    if (!firstStart)
      ({ recorded, starts } = await inStepSpan(STEP_SPANS.startRound, async () =>
        local
          ? toParts(await deps.store.startRound(exchange.exchangeId, round))
          : { recorded: await deps.store.readRound(exchange.exchangeId, round), starts: undefined },
      ));
    if (recorded) {
      // A retry after the round was recorded (a worker killed before reporting): never run it twice.
      log.info({ outcome: recorded.outcome.kind }, 'round already recorded');
      return withWait(summarize(recorded), recorded.outcome, exchange);
    }

    const started = Date.now();
    const capabilities = input.clientCapabilities ?? exchange.clientCapabilities;
    const retriedStarts =
      starts !== undefined
        ? starts - 1
        : attempt > 1
          ? await deps.store.countHandlerStart(exchange.exchangeId, round)
          : 0;
    let outcome: RoundOutcome;
    if (retriedStarts >= deps.maxHandlerAttempts) {
      log.error({ attempt, local, retriedStarts }, 'round handler keeps failing its attempts; ending the exchange');
      outcome = { kind: 'error', error: roundCrashed(exchange.exchangeId, round, retriedStarts) };
    } else {
      log.info({ attempt, local }, 'round started');
      warnIfOtherVersion(exchange, log);
      const timeoutMs = local ? deps.localHandlerTimeoutMs : deps.handlerTimeoutMs;
      outcome = await runHandler(input, capabilities, log, workflowId, timeoutMs);
    }

    outcome = applyAskRules(outcome, {
      exchangeId: exchange.exchangeId,
      round,
      maxRounds: exchange.maxRounds,
      capabilities,
      mayAsk: input.mayAsk,
      handlerState: deps.handlerState,
      roundTimeoutMs: exchange.roundTimeoutMs,
      maxQuestionWaitMs: deps.maxQuestionWaitMs,
    });

    const waitMs = outcome.kind === 'ask' ? waitOf(outcome.inputRequests, exchange) : undefined;
    const record = await inStepSpan(STEP_SPANS.recordRound, () =>
      deps.store.recordRound({
        exchange,
        workflowId,
        round,
        answers: input.answers,
        answersDigest: input.answersDigest,
        outcome,
        durationMs: Date.now() - started,
        // The round's clock starts when the client can see the ask, which is now.
        ...(waitMs !== undefined ? { deadlineAt: new Date(deadlineOf(Date.now(), waitMs)) } : {}),
      }),
    );
    observeRound(deps.handlers, exchange, record, Date.now() - started);
    log.info({ outcome: record.outcome.kind, durationMs: Date.now() - started }, 'round recorded');
    return withWait(summarize(record, outcome), record.outcome, exchange);
  }

  /** How long an ask of `exchange` waits: the round timeout, or its questions' own wait. */
  function waitOf(inputRequests: Record<string, unknown>, exchange: ExchangeInput): number {
    return askWaitMs(inputRequests, {
      roundTimeoutMs: exchange.roundTimeoutMs,
      maxQuestionWaitMs: deps.maxQuestionWaitMs,
    });
  }

  /** An ask's summary with the wait that applies to it, which its expiry names. */
  function withWait(summary: RoundSummary, outcome: RoundOutcome, exchange: ExchangeInput): RoundSummary {
    return outcome.kind === 'ask' && summary.kind === 'ask'
      ? { ...summary, waitMs: waitOf(outcome.inputRequests, exchange) }
      : summary;
  }

  /**
   * An exchange runs on whichever worker takes its round, which may serve other handlers than the
   * API that started it (a rollout half done): said once per round it runs, and the round still
   * runs, on this worker's handlers. Exchanges started before versions were recorded say nothing.
   */
  function warnIfOtherVersion(exchange: ExchangeInput, log: Logger): void {
    const started = exchange.handlerVersion;
    if (started === undefined || deps.handlerVersion === undefined || started === deps.handlerVersion) return;
    log.warn(
      { exchangeHandlerVersion: started, workerHandlerVersion: deps.handlerVersion },
      "round runs on other handlers than the exchange's: this worker serves another version than the API that started it",
    );
  }

  /** Runs the handler with the round's answers and its verified state. */
  async function runHandler(
    input: RunRoundInput,
    capabilities: Record<string, unknown>,
    log: Logger,
    workflowId: string,
    timeoutMs: number,
  ): Promise<RoundOutcome> {
    const { exchange, round } = input;
    try {
      const requestState = openHandlerState(deps.handlerState, input.sealedHandlerState, {
        exchangeId: exchange.exchangeId,
        round,
      });
      const outcome = await executeHandler(
        deps.handlers,
        exchange,
        {
          exchangeId: exchange.exchangeId,
          round,
          inputResponses: roundResponses(exchange, round, input.answers),
          ...(input.answeredBy ? { answeredBy: input.answeredBy } : {}),
          ...(input.expired ? { expired: input.expired } : {}),
          requestState,
          clientCapabilities: capabilities,
          principal: principalOf(exchange.principal, exchange.principalDetails),
          log,
          signal: cancellationSignal(),
          ...createRoundNotifier(deps.store, exchange, workflowId, round, input.listening ?? exchange.listening ?? {}),
        },
        timeoutMs,
      );
      // A final result names the evidence entries of the approvals it was computed from.
      return outcome.kind === 'complete'
        ? { ...outcome, result: withApprovals(outcome.result, input.answeredBy) }
        : outcome;
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      // Its key left the ring, or it was altered: the exchange cannot continue safely.
      log.error({ reason: error.reason }, 'handler state failed verification');
      return { kind: 'error', error: unverifiableHandlerState() };
    }
  }
}
