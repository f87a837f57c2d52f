/**
 * One round of an exchange: re-run the handler from the top with the original request, the
 * answers to the previous ask and its own state, then record the outcome. What the round decides
 * is round-pipeline.ts's (the test harness runs it too); what is the activity's own stays here: the
 * look for a round already recorded, the count of retried starts, a local round's time bound.
 *
 * Idempotent by construction: the outcome row of (exchange, round) is written once, and a retried
 * activity (a worker killed after recording, say) finds it and returns it without running the
 * handler again, so the workflow and Postgres never disagree about a round.
 */
import { workflowIdFor } from '../lib/exchange-client/workflow-messages';
import type { ExchangeInput, Listening, RoundOutcome, RoundSummary } from '../lib/exchange/types';
import { roundCrashed } from '../lib/protocol/exchange-errors';
import type { ExchangeStore } from '../lib/db/exchange-store';
import type { RoundRecord } from '../lib/exchange/types';
import type { AnsweredBy, HandlerSet } from '@durable-mcp/handlers';
import type { HandlerStateCodec } from '../lib/state/handler-state';
import { exchangeLogger, type Logger } from '../lib/log';
import { classifyFailure } from './failure-class';
import { activityAttempt, cancellationSignal, isLocalActivity, keepHeartbeating } from './heartbeat';
import { createRoundNotifier } from './round-notifier';
import { createRoundPipeline } from './round-pipeline';
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
  const pipeline = createRoundPipeline(deps);
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
      return pipeline.summaryOf(recorded, exchange);
    }

    const started = Date.now();
    const capabilities = input.clientCapabilities ?? exchange.clientCapabilities;
    const retriedStarts =
      starts !== undefined
        ? starts - 1
        : attempt > 1
          ? await deps.store.countHandlerStart(exchange.exchangeId, round)
          : 0;
    let instead: RoundOutcome | undefined;
    if (retriedStarts >= deps.maxHandlerAttempts) {
      log.error({ attempt, local, retriedStarts }, 'round handler keeps failing its attempts; ending the exchange');
      instead = { kind: 'error', error: roundCrashed(exchange.exchangeId, round, retriedStarts) };
    } else {
      log.info({ attempt, local }, 'round started');
      warnIfOtherVersion(exchange, log);
    }

    const { record, summary } = await pipeline.runPipeline({
      exchange,
      round,
      answers: input.answers,
      ...(input.answeredBy ? { answeredBy: input.answeredBy } : {}),
      ...(input.expired ? { expired: input.expired } : {}),
      capabilities,
      sealedHandlerState: input.sealedHandlerState,
      mayAsk: input.mayAsk,
      log,
      signal: cancellationSignal(),
      notifiers: createRoundNotifier(
        deps.store,
        exchange,
        workflowId,
        round,
        input.listening ?? exchange.listening ?? {},
      ),
      timeoutMs: local ? deps.localHandlerTimeoutMs : deps.handlerTimeoutMs,
      ...(instead ? { instead } : {}),
      now: () => Date.now(),
      record: ({ outcome, deadlineAt }) =>
        inStepSpan(STEP_SPANS.recordRound, () =>
          deps.store.recordRound({
            exchange,
            workflowId,
            round,
            answers: input.answers,
            answersDigest: input.answersDigest,
            outcome,
            durationMs: Date.now() - started,
            ...(deadlineAt ? { deadlineAt } : {}),
          }),
        ),
    });
    observeRound(deps.handlers, exchange, record, Date.now() - started);
    log.info({ outcome: record.outcome.kind, durationMs: Date.now() - started }, 'round recorded');
    return summary;
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
}
