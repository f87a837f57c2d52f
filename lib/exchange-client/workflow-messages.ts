/**
 * How anything outside the exchange workflow addresses it: its type, its id, its signals and
 * queries, shared by the workflow, the API, the activities and the harness. Importing this module
 * loads no workflow code, only the definitions.
 */
import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { KeyAnswer, RoundAnswers } from '../exchange/types';
import type { QuestionAnswer } from '../questions/question';
import type { CancelledBy } from '../protocol/exchange-errors';
import type { AnswerStanding } from '../exchange-rules/exchange-state';

/** Answers to an ask. Durable the moment Temporal records it, even with no worker running. */
export const answersSignal = defineSignal<[RoundAnswers]>('answers');

/** One key's answer from a legacy client's response to a server-to-client request. */
export const keyAnswerSignal = defineSignal<[KeyAnswer]>('keyAnswer');

/** One answer to a question addressed to someone other than the caller, from the answer page or API. */
export const questionAnswerSignal = defineSignal<[QuestionAnswer]>('questionAnswer');

/** The client cancelled the originating request, or an operator cancelled the exchange through the admin API. */
export const cancelSignal = defineSignal<[{ reason?: string; by?: CancelledBy }]>('cancel');

export interface ExchangeProgress {
  round: number;
  asks: number;
  waitingForRound?: number;
  status: string;
}

export const progressQuery = defineQuery<ExchangeProgress>('progress');

/** Where the answers to one round (or one key of its ask) stand in the workflow (exchange-state.ts `answerStanding`). */
export const answerStandingQuery = defineQuery<AnswerStanding, [{ round: number; key?: string }]>('answerStanding');

export const WORKFLOW_TYPE = 'exchangeWorkflow';

/** The id of an exchange's workflow in Temporal: what the API signals, the worker records and the Web UI lists. */
export function workflowIdFor(exchangeId: string): string {
  return `exchange-${exchangeId}`;
}

/** The exchange a workflow id names, or undefined for a workflow that is not an exchange's. */
export function exchangeIdOfWorkflow(workflowId: string): string | undefined {
  return workflowId.startsWith('exchange-') ? workflowId.slice('exchange-'.length) : undefined;
}
