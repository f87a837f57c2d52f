/**
 * The two ways a driven exchange (drive-exchange.ts) is answered: a client's retry with the ask's
 * answers, through the API's checks (the request state, stale, mismatched, repeated and late legs,
 * lib's leg decisions) and then the workflow's; and the answers of someone a question is addressed
 * to (driven-questions.ts). Either runs the next round once the workflow has taken the answers.
 */
import type { RoundRecord } from '../lib/exchange/types';
import type { ExchangeInput, RoundAnswers } from '../lib/exchange/types';
import { fromOutcome, invalidRequestState } from '../lib/protocol/error-catalog';
import { exchangeExpired } from '../lib/protocol/exchange-errors';
import type { ElicitAnswer } from '../lib/questions/question';
import { RequestStateError, type RequestStateCodec } from '../lib/state/request-state';
import { acceptAnswers, takeAnswers, type ExchangeState } from '../lib/exchange-rules/exchange-state';
import { answeredDifferently, classifyAnswer } from '../lib/exchange-rules/leg-rules';
import { refusal, toJson } from './drive-steps';
import type { Answerer, AnswerOptions, Step } from './drive-types';
import { answererIdentity, answerQuestions } from './driven-questions';

/** What of a driven exchange its answer legs read and move (drive-exchange.ts `answering`). */
export interface AnsweredExchange {
  input: ExchangeInput;
  state: ExchangeState;
  requestState: RequestStateCodec;
  /** What the exchange's request states are bound to: its request's digest and its principal. */
  binding: { requestDigest: string; principal: string };
  records: ReadonlyMap<number, RoundRecord>;
  steps: ReadonlyMap<number, Step<unknown>>;
  /** The harness's clock, and moving it on by `ms`. */
  now(): number;
  advance(ms: number): void;
  /** The round timer: ends the exchange as expired once the awaited ask's deadline has passed. */
  fireTimers(): Promise<void>;
  /** The step a recorded round is (for a repeated leg: no notifications, its own ignored keys). */
  stepOf<R>(record: RoundRecord, ignoredKeys: string[]): Step<R>;
  runRound<R>(
    round: number,
    answers: RoundAnswers,
    capabilities: Record<string, unknown>,
    ignoredKeys: string[],
  ): Promise<Step<R>>;
}

/** A retry that answers an ask, through the API's checks, then the workflow's. */
export async function answerRetry<R>(
  exchange: AnsweredExchange,
  responses: Record<string, unknown>,
  options: AnswerOptions & { requestState: string },
): Promise<Step<R>> {
  exchange.advance(Math.max(0, options.afterMs ?? 0));
  let round: number;
  try {
    const claims = exchange.requestState.verify(options.requestState, exchange.binding);
    // A requestState of another exchange opens only with that exchange's key: here, it cannot.
    if (claims.exchangeId !== exchange.input.exchangeId || claims.kind !== 'ask') throw new RequestStateError('claims');
    round = claims.round;
  } catch (error) {
    if (!(error instanceof RequestStateError)) throw error;
    return refusal<R>(
      exchange.input.exchangeId,
      exchange.state.round,
      exchange.state.asks,
      toJson(invalidRequestState()),
    );
  }
  await exchange.fireTimers();
  const ask = exchange.records.get(round);
  const next = exchange.records.get(round + 1);
  const asked = ask?.outcome.kind === 'ask' ? Object.keys(ask.outcome.inputRequests) : [];
  const ignoredKeys = Object.keys(responses).filter((key) => !asked.includes(key));
  const verdict = classifyAnswer({ ask, next, inputResponses: responses, now: exchange.now() });
  switch (verdict.kind) {
    case 'stale':
      return refusal<R>(exchange.input.exchangeId, round, exchange.state.asks, toJson(invalidRequestState()));
    case 'mismatch':
      return refusal<R>(exchange.input.exchangeId, round, exchange.state.asks, toJson(answeredDifferently(round)));
    case 'retry': {
      // The same leg again: the outcome it had, without running anything twice.
      const step = exchange.steps.get(round + 1) as Step<R> | undefined;
      return step ? { ...step, ignoredKeys, notifications: [] } : exchange.stepOf<R>(verdict.record, ignoredKeys);
    }
    case 'late':
      return refusal<R>(
        exchange.input.exchangeId,
        round,
        exchange.state.asks,
        toJson(fromOutcome(exchangeExpired(exchange.input.exchangeId, round, verdict.roundTimeoutMs))),
      );
    case 'fresh':
      break;
  }
  const capabilities = (options.capabilities ?? exchange.input.clientCapabilities) as Record<string, unknown>;
  const accepted = acceptAnswers(exchange.state, {
    round,
    responses: verdict.responses,
    digest: verdict.digest,
    clientCapabilities: capabilities,
    sentAt: exchange.now(),
  });
  if (accepted !== 'accepted') throw new Error(`round ${round}: the exchange did not take these answers (${accepted})`);
  const taken = takeAnswers(exchange.state);
  return exchange.runRound<R>(round + 1, taken, capabilities, ignoredKeys);
}

/** Answers the questions of `ask` as `answerer` (driven-questions.ts), then runs the next round once they are decided. */
export async function answerAsAddressee<R>(
  exchange: AnsweredExchange,
  ask: RoundRecord,
  answerer: Answerer | 'caller',
  responses: Record<string, unknown>,
  options: { afterMs?: number },
): Promise<Step<R>> {
  exchange.advance(Math.max(0, options.afterMs ?? 0));
  await exchange.fireTimers();
  const error = answerQuestions(
    exchange.state,
    exchange.input,
    ask,
    answererIdentity(answerer, exchange.input, exchange.now()),
    responses as Record<string, ElicitAnswer>,
    exchange.now(),
  );
  if (error) return refusal<R>(exchange.input.exchangeId, ask.round, exchange.state.asks, error);
  if (exchange.state.pending === undefined) return exchange.steps.get(ask.round) as Step<R>;
  const taken = takeAnswers(exchange.state);
  return exchange.runRound<R>(ask.round + 1, taken, exchange.input.clientCapabilities, []);
}
