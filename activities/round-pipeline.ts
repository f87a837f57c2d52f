/**
 * What one round decides, from its input to its record: open the handler state sealed with the
 * previous ask, run the handler from the top, name the approvals a final result was computed from,
 * check an ask against the rules (lib/exchange-rules/round-rules.ts), give it its deadline, record
 * it, and summarize it for the workflow. The worker's round activity (run-round.ts) runs it, and
 * so does the in-process test harness (harness/drive-exchange.ts): what a handler's unit test says
 * of a round is what the service does with it, refusal codes included.
 *
 * Where the round runs stays with its caller: the clock, the record's store, the handler's time
 * bound, its notifiers and cancellation, and (in the activity) idempotency and attempt counting.
 * Workflow code never imports this file: it runs handlers.
 */
import type { HandlerContext, HandlerSet } from '@durable-mcp/handlers';
import { withApprovals } from '../lib/evidence/approvals-meta';
import { principalOf } from '../lib/exchange/principal';
import type { ExchangeInput, RoundOutcome, RoundRecord, RoundSummary } from '../lib/exchange/types';
import { deadlineOf } from '../lib/exchange-rules/round-deadline';
import {
  applyAskRules,
  askWaitMs,
  openHandlerState,
  roundResponses,
  summarize,
  unverifiableHandlerState,
} from '../lib/exchange-rules/round-rules';
import type { Logger } from '../lib/log';
import type { HandlerStateCodec } from '../lib/state/handler-state';
import { SealError } from '../lib/state/sealer';
import { executeHandler } from './handler-execution';

/** What every round of a process runs with. */
export interface RoundPipelineParts {
  handlers: HandlerSet;
  handlerState: HandlerStateCodec;
  /** The longest a question addressed to someone else may wait (MAX_QUESTION_WAIT_MS). */
  maxQuestionWaitMs: number;
}

/** One round to run: its input as the workflow gives it, and what differs with where it runs. */
export interface RoundToRun {
  exchange: ExchangeInput;
  round: number;
  answers?: Record<string, unknown>;
  /** Who answered each addressed question of the previous ask (`ctx.answeredBy`). */
  answeredBy?: HandlerContext['answeredBy'];
  /** The previous ask's questions whose wait ended unanswered (`ctx.expired`). */
  expired?: string[];
  /** The capabilities of the leg this round answers (the round's own, else the exchange's). */
  capabilities: Record<string, unknown>;
  /** The handler state sealed with the previous round's ask. */
  sealedHandlerState?: string;
  /** False once the exchange has used its asks: another ask ends it. */
  mayAsk: boolean;
  log: Logger;
  signal: AbortSignal;
  /** Where the handler's progress, log messages and stream closes go. */
  notifiers: Pick<HandlerContext, 'progress' | 'sendLog' | 'closeStream'>;
  /** How long the handler may take before the round ends its exchange with an error. */
  timeoutMs: number;
  /** The outcome, decided without running the handler (one that keeps killing its worker). */
  instead?: RoundOutcome;
  now(): number;
  /** Writes the round's outcome (first write wins) and returns the record that stands. */
  record(written: { outcome: RoundOutcome; deadlineAt?: Date }): Promise<RoundRecord>;
}

export interface RoundRan {
  /** The record that stands for the round (another write's, if one came first). */
  record: RoundRecord;
  /** What the workflow keeps of it, with an ask's wait. */
  summary: RoundSummary;
  /** An ask's handler state as its handler returned it, before it was sealed. */
  handlerState?: string;
}

export function createRoundPipeline(parts: RoundPipelineParts) {
  /** How long an ask of `exchange` waits: the round timeout, or its questions' own wait. */
  function waitOf(inputRequests: Record<string, unknown>, exchange: ExchangeInput): number {
    return askWaitMs(inputRequests, {
      roundTimeoutMs: exchange.roundTimeoutMs,
      maxQuestionWaitMs: parts.maxQuestionWaitMs,
    });
  }

  /**
   * What the workflow keeps of a recorded round (`written`: the outcome this run wrote, if it did),
   * an ask's with the wait that applies to it, which its expiry names.
   */
  function summaryOf(record: RoundRecord, exchange: ExchangeInput, written?: RoundOutcome): RoundSummary {
    const summary = summarize(record, written);
    return record.outcome.kind === 'ask' && summary.kind === 'ask'
      ? { ...summary, waitMs: waitOf(record.outcome.inputRequests, exchange) }
      : summary;
  }

  /** Runs the handler with the round's answers and its verified state. */
  async function runHandler(run: RoundToRun): Promise<RoundOutcome> {
    const { exchange, round } = run;
    try {
      const requestState = openHandlerState(parts.handlerState, run.sealedHandlerState, {
        exchangeId: exchange.exchangeId,
        round,
      });
      const outcome = await executeHandler(
        parts.handlers,
        exchange,
        {
          exchangeId: exchange.exchangeId,
          round,
          inputResponses: roundResponses(exchange, round, run.answers),
          ...(run.answeredBy ? { answeredBy: run.answeredBy } : {}),
          ...(run.expired ? { expired: run.expired } : {}),
          requestState,
          clientCapabilities: run.capabilities,
          principal: principalOf(exchange.principal, exchange.principalDetails),
          log: run.log,
          signal: run.signal,
          ...run.notifiers,
        },
        run.timeoutMs,
      );
      // A final result names the evidence entries of the approvals it was computed from.
      return outcome.kind === 'complete'
        ? { ...outcome, result: withApprovals(outcome.result, run.answeredBy) }
        : outcome;
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      // Its key left the ring, or it was altered: the exchange cannot continue safely.
      run.log.error({ reason: error.reason }, 'handler state failed verification');
      return { kind: 'error', error: unverifiableHandlerState() };
    }
  }

  /** Runs one round and records its outcome. */
  async function runPipeline(run: RoundToRun): Promise<RoundRan> {
    const { exchange, round } = run;
    const returned = run.instead ?? (await runHandler(run));
    const outcome = applyAskRules(returned, {
      exchangeId: exchange.exchangeId,
      round,
      maxRounds: exchange.maxRounds,
      capabilities: run.capabilities,
      mayAsk: run.mayAsk,
      handlerState: parts.handlerState,
      roundTimeoutMs: exchange.roundTimeoutMs,
      maxQuestionWaitMs: parts.maxQuestionWaitMs,
    });
    const waitMs = outcome.kind === 'ask' ? waitOf(outcome.inputRequests, exchange) : undefined;
    // The round's clock starts when the client can see the ask, which is now.
    const record = await run.record({
      outcome,
      ...(waitMs !== undefined ? { deadlineAt: new Date(deadlineOf(run.now(), waitMs)) } : {}),
    });
    return {
      record,
      summary: summaryOf(record, exchange, outcome),
      ...(outcome.kind === 'ask' && returned.kind === 'ask' && returned.sealedHandlerState !== undefined
        ? { handlerState: returned.sealedHandlerState }
        : {}),
    };
  }

  return { runPipeline, summaryOf };
}
