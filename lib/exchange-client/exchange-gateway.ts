/**
 * The API's only contact with Temporal: start an exchange's workflow, deliver answers as a signal.
 * A signal is durable once Temporal records it, even when no worker is running, so an answer
 * accepted here is never lost.
 */
import {
  WorkflowNotFoundError,
  type Client,
  type SignalDefinition,
  type WorkflowExecutionStatusName,
} from '@temporalio/client';
import type {
  ExchangeInput,
  ExchangeOrigin,
  KeyAnswer,
  OriginalRequest,
  RoundActivity,
  RoundAnswers,
} from '../exchange/types';
import {
  answersSignal,
  answerStandingQuery,
  cancelSignal,
  keyAnswerSignal,
  questionAnswerSignal,
  WORKFLOW_TYPE,
  workflowIdFor,
} from './workflow-messages';
import type { QuestionAnswer } from '../questions/question';
import {
  EXCHANGE_ROUND,
  EXCHANGE_STATUS,
  HANDLER_VERSION,
  MAX_KEYWORD_CHARS,
  MCP_CLIENT_NAME,
  MCP_ERA,
  MCP_METHOD,
  MCP_PRINCIPAL,
  MCP_SESSION,
  MCP_TARGET,
} from '../exchange/search-attributes';
import { clip } from '../exchange/ask-description';
import { exchangeStaticDetails, exchangeSummary } from '../exchange/exchange-details';
import { type HandlerSet } from '@durable-mcp/handlers';
import { priorityFor, roundActivityFor } from '../handler-set/lookup';
import { exchangePriority, type FairnessKeySource } from '../exchange/fairness';
import type { CancelledBy } from '../protocol/exchange-errors';
import type { AnswerStanding } from '../exchange-rules/exchange-state';
import { apiMetrics, type SignalName } from '../metrics/api-metrics';
import type { Logger } from '../log';

export interface ExchangeGateway {
  /** Starts the exchange's workflow, named in Temporal by what it is and by `origin` (who sent it). */
  start(input: ExchangeInput, origin?: ExchangeOrigin): Promise<string>;
  /** Delivers answers; false when the exchange's workflow has already ended. */
  sendAnswers(exchangeId: string, answers: RoundAnswers): Promise<boolean>;
  /** Delivers one key's answer (legacy era); false when the workflow has ended. */
  sendKeyAnswer(exchangeId: string, answer: KeyAnswer): Promise<boolean>;
  /** Delivers one answer to an addressed question (sentAt is when it was claimed); false when the workflow has ended. */
  sendQuestionAnswer(exchangeId: string, answer: QuestionAnswer): Promise<boolean>;
  /** Asks the exchange to end because the client cancelled; false when it has already ended. */
  cancel(exchangeId: string, reason?: string, by?: CancelledBy): Promise<boolean>;
  /** The workflow's execution status, or NOT_FOUND when Temporal no longer has it. */
  workflowStatus(exchangeId: string): Promise<WorkflowStatus>;
  /**
   * Where the workflow says the answers to `round` (or one `key` of its ask) stand; undefined when
   * it cannot say within `ANSWER_STANDING_TIMEOUT_MS` (no worker runs it now, Temporal unreachable).
   */
  answerStanding(exchangeId: string, round: number, key?: string): Promise<AnswerStanding | undefined>;
}

/**
 * How long the API waits for a workflow to say where an answer stands. A query needs a worker: with
 * none, it would wait until one comes, and the leg that asked has better things to do (the answer it
 * would deliver again is in history already, and a worker that comes back applies it).
 */
export const ANSWER_STANDING_TIMEOUT_MS = 2_000;

export type WorkflowStatus = WorkflowExecutionStatusName | 'NOT_FOUND';

/** Signals a workflow; false when it no longer runs. Every signal is counted, and logged (debug), by its result. */
async function signalIfRunning(signal: SignalName, send: () => Promise<void>, log?: Logger): Promise<boolean> {
  try {
    await send();
    apiMetrics.signalSent(signal, 'delivered');
    log?.debug({ signal, result: 'delivered' }, 'signal sent');
    return true;
  } catch (error) {
    const closed = error instanceof WorkflowNotFoundError;
    apiMetrics.signalSent(signal, closed ? 'workflow_closed' : 'failed');
    log?.debug({ signal, result: closed ? 'workflow_closed' : 'failed' }, 'signal sent');
    if (closed) return false;
    throw error;
  }
}

/**
 * `handlers`, the set served, says how the rounds of a request run (the handler's declaration,
 * `roundActivityFor`; the choice travels in the workflow's input, so the workflow makes it
 * deterministically; without a set, rounds run as local activities) and names the metrics' target
 * labels (a target it lacks is `(unknown)`). `fairnessKey` (FAIRNESS_KEY) says whose share of the
 * workers an exchange's tasks take: its workflow starts with that fairness key and the priority its
 * handler declares (lib/exchange/fairness.ts). `log` gets a debug line per workflow started and
 * signal sent; within a request, those carry its `reqId` and `exchangeId` (lib/log.ts).
 */
export function createExchangeGateway(
  client: Client,
  taskQueue: string,
  options: { handlers?: HandlerSet; log?: Logger; fairnessKey?: FairnessKeySource } = {},
): ExchangeGateway {
  const { handlers, log, fairnessKey = 'principal' } = options;
  const roundActivityOf = (request: OriginalRequest): RoundActivity =>
    handlers ? roundActivityFor(handlers, request) : 'local';
  /** Sends `definition` with `arg` to the exchange's workflow; false when it no longer runs. */
  const signal = <A>(name: SignalName, exchangeId: string, definition: SignalDefinition<[A]>, arg: A) =>
    signalIfRunning(name, () => client.workflow.getHandle(workflowIdFor(exchangeId)).signal(definition, arg), log);
  return {
    async start(input, origin = {}) {
      const workflowId = workflowIdFor(input.exchangeId);
      const started = { ...input, roundActivity: input.roundActivity ?? roundActivityOf(input.request) };
      // What the Temporal UI shows of it: method, target, era, client, session tag and the handlers'
      // version; no argument, no answer, no session id.
      await client.workflow.start(WORKFLOW_TYPE, {
        workflowId,
        taskQueue,
        args: [started],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        // Inherited by its workflow tasks and set on its activities (workflows/round-activities.ts).
        priority: exchangePriority(
          { principal: input.principal, ...(origin.tenant !== undefined ? { tenant: origin.tenant } : {}) },
          fairnessKey,
          handlers ? priorityFor(handlers, input.request) : undefined,
        ),
        staticSummary: exchangeSummary(input.request, input.era, origin),
        staticDetails: exchangeStaticDetails(started, origin),
        typedSearchAttributes: [
          { key: MCP_METHOD, value: input.request.method },
          { key: MCP_TARGET, value: input.request.target },
          { key: EXCHANGE_STATUS, value: 'running' },
          { key: EXCHANGE_ROUND, value: 0 },
          { key: MCP_ERA, value: input.era },
          ...(origin.client ? [{ key: MCP_CLIENT_NAME, value: clip(origin.client.name, MAX_KEYWORD_CHARS) }] : []),
          ...(origin.session ? [{ key: MCP_SESSION, value: origin.session }] : []),
          { key: MCP_PRINCIPAL, value: input.principal },
          ...(input.handlerVersion
            ? [{ key: HANDLER_VERSION, value: clip(input.handlerVersion, MAX_KEYWORD_CHARS) }]
            : []),
        ],
      });
      apiMetrics.exchangeStarted(options.handlers, input);
      log?.debug({ workflowId }, 'workflow started');
      return workflowId;
    },

    // Every answer carries the time it was signalled: the workflow refuses those after the deadline.
    sendAnswers: (exchangeId, answers) =>
      signal('answers', exchangeId, answersSignal, { ...answers, sentAt: Date.now() }),
    sendKeyAnswer: (exchangeId, answer) =>
      signal('keyAnswer', exchangeId, keyAnswerSignal, { ...answer, sentAt: Date.now() }),
    // A question's answer keeps the time it was claimed: its re-signal is judged as the first was.
    sendQuestionAnswer: (exchangeId, answer) => signal('questionAnswer', exchangeId, questionAnswerSignal, answer),
    cancel: (exchangeId, reason, by = 'client') => signal('cancel', exchangeId, cancelSignal, { reason, by }),

    async answerStanding(exchangeId, round, key) {
      const handle = client.workflow.getHandle(workflowIdFor(exchangeId));
      try {
        return await client.withDeadline(Date.now() + ANSWER_STANDING_TIMEOUT_MS, () =>
          handle.query(answerStandingQuery, { round, ...(key !== undefined ? { key } : {}) }),
        );
      } catch (error) {
        log?.debug({ err: error, round }, 'the workflow could not say where the answers stand');
        return undefined;
      }
    },

    async workflowStatus(exchangeId) {
      try {
        return (await client.workflow.getHandle(workflowIdFor(exchangeId)).describe()).status.name;
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return 'NOT_FOUND';
        throw error;
      }
    },
  };
}
