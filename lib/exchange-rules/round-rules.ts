/**
 * The rules a round's outcome passes between its handler and its record, as pure functions: the
 * worker's round activity (run-round.ts) applies them, and so does the in-process test harness
 * (harness), so a handler's unit tests meet the same refusals its exchanges do.
 *
 * - An ask that needs a capability the client did not declare ends the exchange with -32021.
 * - An ask past the round cap ends it with -32011.
 * - The handler's own state is sealed, bound to its exchange and round, and opened only for the
 *   next round of the same exchange; state that fails to open ends it with -32603.
 */
import type { RoundRecord } from '../exchange/types';
import { describeAsk } from '../exchange/ask-description';
import { missingCapabilities } from '../exchange/capabilities';
import { exchangeStatusOf } from '../exchange/exchange-status';
import type { ExchangeInput, OutcomeError, RoundOutcome, RoundSummary } from '../exchange/types';
import { missingClientCapabilities, roundCapExceeded } from '../protocol/exchange-errors';
import { INTERNAL_ERROR } from '../protocol/json-rpc-codes';
import type { HandlerStateCodec } from '../state/handler-state';
import { addressedKeys, addressingOf } from '../questions/addressing';
import { addressedAskWaitMs, questionWaitMs } from '../questions/question-wait';
import { addressedAskProblem } from '../questions/addressed-ask-check';
import type { Addressing } from '../questions/question';

/** An addressed ask's questions, for the workflow (who may answer each key), or nothing. */
function questionsOfAsk(inputRequests: Record<string, unknown>): { questions?: Record<string, Addressing> } {
  const keys = addressedKeys(inputRequests);
  if (keys.length === 0) return {};
  return { questions: Object.fromEntries(keys.map((key) => [key, addressingOf(inputRequests[key])!])) };
}

export interface AskRules {
  exchangeId: string;
  round: number;
  maxRounds: number;
  /** The capabilities of the leg this round answers (the round's own, else the exchange's). */
  capabilities: Record<string, unknown>;
  /** False once the exchange has used its asks: another ask ends it. */
  mayAsk: boolean;
  handlerState: HandlerStateCodec;
  /** The longest a question addressed to someone else may wait (MAX_QUESTION_WAIT_MS). */
  maxQuestionWaitMs: number;
  roundTimeoutMs: number;
}

/** The outcome to record for what the handler returned: an ask checked against the rules, its state sealed. */
export function applyAskRules(outcome: RoundOutcome, rules: AskRules): RoundOutcome {
  if (outcome.kind !== 'ask') return outcome;
  const addressed = addressedAskProblem(outcome.inputRequests, (addressing) =>
    questionWaitMs(addressing, rules.roundTimeoutMs, rules.maxQuestionWaitMs),
  );
  if (addressed)
    return { kind: 'error', error: { code: INTERNAL_ERROR, message: `The handler's ask is invalid: ${addressed}` } };
  // Questions addressed to someone else never reach the caller's client: they need none of its capabilities.
  const forCaller = Object.fromEntries(
    Object.entries(outcome.inputRequests).filter(([, request]) => addressingOf(request) === undefined),
  );
  const missing = missingCapabilities(forCaller, rules.capabilities);
  if (Object.keys(missing).length > 0) return { kind: 'error', error: missingClientCapabilities(missing) };
  if (!rules.mayAsk) return { kind: 'error', error: roundCapExceeded(rules.exchangeId, rules.maxRounds) };
  if (outcome.sealedHandlerState === undefined) return outcome;
  return {
    ...outcome,
    sealedHandlerState: rules.handlerState.seal(outcome.sealedHandlerState, {
      exchangeId: rules.exchangeId,
      round: rules.round,
    }),
  };
}

/** How long an ask waits for its answers: the round timeout, or an addressed ask's own wait. */
export function askWaitMs(
  inputRequests: Record<string, unknown>,
  rules: Pick<AskRules, 'roundTimeoutMs' | 'maxQuestionWaitMs'>,
): number {
  return addressedAskWaitMs(inputRequests, rules.roundTimeoutMs, rules.maxQuestionWaitMs) ?? rules.roundTimeoutMs;
}

/** The handler state sealed with the previous round's ask, opened for `round` (throws `SealError`). */
export function openHandlerState(
  codec: HandlerStateCodec,
  sealed: string | undefined,
  binding: { exchangeId: string; round: number },
): string | undefined {
  return sealed ? codec.open(sealed, { exchangeId: binding.exchangeId, round: binding.round - 1 }) : undefined;
}

/** The error that ends an exchange whose handler state does not open (its key left the ring, or it was altered). */
export const unverifiableHandlerState = (): OutcomeError => ({
  code: INTERNAL_ERROR,
  message: 'The exchange state could not be verified',
});

/** What round `round`'s handler reads as `ctx.inputResponses`: this round's answers, or on round 1 those the first leg carried. */
export function roundResponses(
  exchange: Pick<ExchangeInput, 'initialResponses'>,
  round: number,
  answers: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return answers ?? (round === 1 ? exchange.initialResponses : undefined) ?? {};
}

/**
 * What the workflow keeps of a recorded round, with the status Postgres gave the exchange. An ask
 * this call recorded (`written`, the outcome as the handler returned it) is described in the
 * handler's order of requests and fields; Postgres keeps JSON objects in an order of its own.
 */
export function summarize(record: RoundRecord, written?: RoundOutcome): RoundSummary {
  const { outcome, round } = record;
  const asked = record.recordedNow && written?.kind === 'ask' ? written : outcome;
  switch (outcome.kind) {
    case 'ask':
      return {
        round,
        kind: 'ask',
        askKeys: Object.keys(outcome.inputRequests),
        // For the workflow's current details: bounded, and without anything the client answers.
        ask: describeAsk(
          asked.kind === 'ask' ? asked.inputRequests : outcome.inputRequests,
          record.recordedAt.getTime(),
        ),
        sealedHandlerState: outcome.sealedHandlerState,
        status: 'running',
        ...(record.deadlineAt ? { deadlineAt: record.deadlineAt.getTime() } : {}),
        ...questionsOfAsk(outcome.inputRequests),
      };
    case 'complete':
      return { round, kind: 'complete', status: 'completed' };
    case 'error':
      return {
        round,
        kind: 'error',
        errorCode: outcome.error.code,
        status: exchangeStatusOf({ kind: 'error', errorCode: outcome.error.code }),
      };
  }
}
