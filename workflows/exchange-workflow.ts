/**
 * One durable multi-round-trip exchange (MCP 2026-07-28, SEP-2322), from its first leg to its
 * final result.
 *
 * The workflow owns progress and time and does no I/O: each round, an activity re-runs the handler
 * from the top with the original request, the answers to the previous ask and the handler's sealed
 * state, then records the outcome in Postgres (which is how the API learns it). Between rounds the
 * workflow waits for the `answers` signal under a durable timer, so a person may take the whole
 * round timeout to answer, across restarts of every process. Rounds are capped: an ask beyond
 * `maxRounds` ends the exchange with an error instead.
 */
import {
  ActivityFailure,
  condition,
  log,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';
import type { ExchangeInput, ExchangeStatus, RoundAnswers, RoundSummary } from '../lib/exchange/types';
import { exchangeCancelled, exchangeExpired, roundFailed } from '../lib/protocol/exchange-errors';
import {
  acceptAnswers,
  acceptKeyAnswer,
  initialState,
  markCancelled,
  markExpired,
  mayAsk,
  recordRound,
  requestCancel,
  takeAnswers,
} from './exchange-state';
import { answersSignal, cancelSignal, keyAnswerSignal, progressQuery } from './messages';
import { EXCHANGE_ROUND, EXCHANGE_STATUS } from './search-attributes';

type Activities = ReturnType<typeof createActivities>;

// Handler failures, and handlers that run past HANDLER_TIMEOUT_MS, become outcomes inside the
// activity; what reaches Temporal's retry is infrastructure trouble (Postgres down, a worker
// killed mid-round, every worker stopped for a deploy), which is worth waiting out without a
// limit. A failure Temporal will not retry still ends the exchange with an error (below).
const retry = { initialInterval: '250 milliseconds', backoffCoefficient: 2, maximumInterval: '15 seconds' };
const { runRound, recordOutcome } = proxyActivities<Activities>({ startToCloseTimeout: '3 minutes', retry });

export interface ExchangeResult {
  status: ExchangeStatus;
  rounds: number;
  asks: number;
}

export async function exchangeWorkflow(input: ExchangeInput): Promise<ExchangeResult> {
  const state = initialState();

  setHandler(answersSignal, (answers: RoundAnswers) => {
    const verdict = acceptAnswers(state, answers);
    if (verdict !== 'accepted') log.info('answers ignored', { exchangeId: input.exchangeId, round: answers.round, verdict });
  });
  setHandler(keyAnswerSignal, (answer) => {
    const verdict = acceptKeyAnswer(state, answer);
    if (verdict !== 'accepted') log.info('answer ignored', { exchangeId: input.exchangeId, round: answer.round, key: answer.key, verdict });
  });
  let cancelReason: string | undefined;
  setHandler(cancelSignal, ({ reason }) => {
    cancelReason = reason;
    requestCancel(state);
  });
  setHandler(progressQuery, () => ({
    round: state.round,
    asks: state.asks,
    waitingForRound: state.awaiting,
    status: state.status,
  }));

  let answers: RoundAnswers | undefined;
  let sealedHandlerState: string | undefined;
  for (;;) {
    const round = state.round + 1;
    let summary: RoundSummary;
    try {
      summary = await runRound({
        exchange: input,
        round,
        answers: answers?.responses,
        answersDigest: answers?.digest,
        clientCapabilities: answers?.clientCapabilities,
        listening: answers?.listening,
        sealedHandlerState,
        mayAsk: mayAsk(state, input.maxRounds),
      });
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      log.error('round could not run to completion', { exchangeId: input.exchangeId, round, cause: error.cause?.message });
      summary = await recordOutcome({
        exchange: input,
        round,
        outcome: { kind: 'error', error: roundFailed(input.exchangeId, round) },
        status: 'failed',
      });
    }
    recordRound(state, summary);
    sealedHandlerState = summary.sealedHandlerState;
    publish(round, summary.kind === 'ask' ? `asked for ${summary.askKeys?.join(', ')}` : summary.kind, state.status);
    if (summary.kind !== 'ask') return result();

    const answered = await condition(() => state.pending !== undefined || state.cancelRequested === true, input.roundTimeoutMs);
    if (state.cancelRequested) {
      markCancelled(state);
      await recordOutcome({
        exchange: input,
        round: round + 1,
        outcome: { kind: 'error', error: exchangeCancelled(input.exchangeId, cancelReason) },
        status: 'cancelled',
      });
      publish(round + 1, 'cancelled', state.status);
      return result();
    }
    if (!answered) {
      markExpired(state);
      await recordOutcome({
        exchange: input,
        round: round + 1,
        outcome: { kind: 'error', error: exchangeExpired(input.exchangeId, round, input.roundTimeoutMs) },
        status: 'expired',
      });
      publish(round + 1, 'expired', state.status);
      return result();
    }
    answers = takeAnswers(state);
  }

  function publish(round: number, what: string, status: ExchangeStatus): void {
    upsertSearchAttributes([
      { key: EXCHANGE_ROUND, value: round },
      { key: EXCHANGE_STATUS, value: status },
    ]);
    setCurrentDetails(`**${input.request.method} ${input.request.target}** round ${round}: ${what}`);
  }

  function result(): ExchangeResult {
    return { status: state.status, rounds: state.round, asks: state.asks };
  }
}
