/**
 * The exchange workflow's signal and query handlers (exchange-workflow.ts), set up in one place so
 * the workflow body reads as its rounds. Each signal hands its answers to the round bookkeeping
 * (exchange-state.ts) and only logs and updates what the Temporal UI shows; none issues a command,
 * so where they are set up changes nothing a history records.
 */
import { log, setHandler } from '@temporalio/workflow';
import type { ExchangeInput, RoundAnswers } from '../lib/exchange/types';
import type { CancelledBy } from '../lib/protocol/exchange-errors';
import { cancelledByOf, holdsAnswersAhead } from './compat';
import {
  acceptAnswers,
  acceptKeyAnswer,
  acceptQuestion,
  answerStanding,
  requestCancel,
  type AheadPolicy,
  type ExchangeState,
} from '../lib/exchange-rules/exchange-state';
import {
  answersSignal,
  answerStandingQuery,
  cancelSignal,
  keyAnswerSignal,
  progressQuery,
  questionAnswerSignal,
} from '../lib/exchange-client/workflow-messages';
import type { TaskModeOf } from './task-mode';
import type { createVisibility } from './visibility';

/** What the cancel signal carried, read when the workflow records the cancel's ending. */
export interface CancelRequest {
  reason?: string;
  by: CancelledBy;
}

export interface ExchangeHandlerParts {
  taskMode: TaskModeOf;
  visibility: ReturnType<typeof createVisibility>;
}

/** Sets up every signal and query handler of one exchange; returns the cancel request as it stands. */
export function setUpExchangeHandlers(
  input: ExchangeInput,
  state: ExchangeState,
  { taskMode, visibility }: ExchangeHandlerParts,
): CancelRequest {
  const ahead: AheadPolicy = { allowed: holdsAnswersAhead, lastRound: input.maxRounds };
  setHandler(
    answersSignal,
    (answers: RoundAnswers) => {
      const verdict = acceptAnswers(state, answers, ahead);
      // Answers to an MRTR round whose tool's task begins after its input: the rest is a task.
      if (verdict === 'accepted') taskMode.begin(answers.task);
      if (verdict === 'held')
        log.info('answers held until their round asks', { exchangeId: input.exchangeId, round: answers.round });
      else if (verdict !== 'accepted')
        log.info('answers ignored', { exchangeId: input.exchangeId, round: answers.round, verdict });
    },
    { description: 'The answers to an ask (a 2026-07-28 retry with inputResponses)' },
  );
  setHandler(
    keyAnswerSignal,
    (answer) => {
      const verdict = acceptKeyAnswer(state, answer, ahead);
      if (verdict === 'held')
        log.info('answer held until its round asks', {
          exchangeId: input.exchangeId,
          round: answer.round,
          key: answer.key,
        });
      else if (verdict !== 'accepted')
        log.info('answer ignored', { exchangeId: input.exchangeId, round: answer.round, key: answer.key, verdict });
      else if (state.pending === undefined) visibility.showWaiting();
    },
    { description: "One answer of a legacy client: its response to one of the ask's server-to-client requests" },
  );
  setHandler(
    questionAnswerSignal,
    (answer) => {
      const verdict = acceptQuestion(state, answer);
      const fields = { exchangeId: input.exchangeId, round: answer.round, key: answer.key, verdict };
      if (verdict === 'decided' || verdict === 'taken' || verdict === 'held') log.info('question answer taken', fields);
      else log.info('question answer ignored', fields);
      if (verdict === 'decided' || verdict === 'taken') visibility.questionAnswered(answer.by.id);
    },
    { description: 'One answer to a question addressed to someone other than the caller (the answer page or API)' },
  );
  const cancel: CancelRequest = { by: 'client' };
  setHandler(
    cancelSignal,
    ({ reason, by }) => {
      cancel.reason = reason;
      cancel.by = cancelledByOf(by);
      requestCancel(state);
    },
    { description: 'The client withdrew its request, or an operator cancelled the exchange through the admin API' },
  );
  setHandler(progressQuery, () => ({
    round: state.round,
    asks: state.asks,
    waitingForRound: state.awaiting,
    status: state.status,
  }));
  setHandler(answerStandingQuery, ({ round, key }) => answerStanding(state, round, key), {
    description:
      'Whether the answers to a round (or one key of its ask) reached the exchange: the API asks before delivering them again',
  });
  return cancel;
}
