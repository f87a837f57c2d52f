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
import { asksSomeoneElse, callerRepliesTo } from '../lib/exchange-rules/addressed-leg';
import { RpcError } from '../lib/protocol/rpc-error';
import { MAX_ROUND_INPUT_BYTES, refusal, toJson } from './drive-steps';
import { roundInputTooLarge } from '../lib/exchange-rules/round-input-size';
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
  const capabilities = (options.capabilities ?? exchange.input.clientCapabilities) as Record<string, unknown>;
  // Questions for someone else: the API takes no answer to them but the caller's URL replies.
  if (ask && asksSomeoneElse(ask)) return callerReplies<R>(exchange, ask, responses, capabilities);
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
  // The round-input budget, at the service's default (MAX_ROUND_INPUT_BYTES).
  const tooLarge = roundInputTooLarge(
    { params: exchange.input.request.params, answers: verdict.responses, clientCapabilities: capabilities },
    MAX_ROUND_INPUT_BYTES,
  );
  if (tooLarge) return refusal<R>(exchange.input.exchangeId, round, exchange.state.asks, toJson(tooLarge));
  const accepted = acceptAnswers(exchange.state, {
    round,
    responses: verdict.responses,
    digest: verdict.digest,
    clientCapabilities: capabilities,
    sentAt: exchange.now(),
  });
  // The API's checks above leave the workflow nothing to refuse in a harness that runs one leg at a time.
  if (accepted !== 'accepted')
    throw new Error(
      `round ${round}: the harness's workflow did not take answers the API's checks passed (${accepted})`,
    );
  const taken = takeAnswers(exchange.state);
  return exchange.runRound<R>(round + 1, taken, capabilities, ignoredKeys);
}

/**
 * A client's retry to an ask addressed to someone else, as the API takes it (lib/exchange-rules
 * addressed-leg.ts): refused (-32602), unless it replies to the URL elicitations of the caller's
 * own questions, which the harness serves as the service does with its answer pages
 * (`answerAs('caller')` is the page). A decline or cancel is the caller's answer to its question;
 * an accept is consent only, and the ask still waits.
 */
async function callerReplies<R>(
  exchange: AnsweredExchange,
  ask: RoundRecord,
  responses: Record<string, unknown>,
  capabilities: Record<string, unknown>,
): Promise<Step<R>> {
  let refusals;
  try {
    refusals = callerRepliesTo(ask, capabilities, responses, true);
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    return refusal<R>(exchange.input.exchangeId, ask.round, exchange.state.asks, toJson(error));
  }
  if (refusals.length === 0) return exchange.steps.get(ask.round) as Step<R>;
  const answers = Object.fromEntries(refusals.map(({ key, action }) => [key, { action }]));
  return answerAsAddressee<R>(exchange, ask, 'caller', answers, {});
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
