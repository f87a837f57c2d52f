/**
 * The API's only contact with Temporal: start an exchange's workflow, deliver answers as a signal.
 * A signal is durable once Temporal records it, even when no worker is running, so an answer
 * accepted here is never lost.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { ExchangeInput, RoundAnswers } from '../../../lib/exchange/types';
import { answersSignal, WORKFLOW_TYPE, workflowIdFor } from '../../../workflows/messages';
import { MCP_METHOD, MCP_TARGET, EXCHANGE_STATUS, EXCHANGE_ROUND } from '../../../workflows/search-attributes';

export interface ExchangeGateway {
  start(input: ExchangeInput): Promise<string>;
  /** Delivers answers; false when the exchange's workflow has already ended. */
  sendAnswers(exchangeId: string, answers: RoundAnswers): Promise<boolean>;
}

export function createExchangeGateway(client: Client, taskQueue: string): ExchangeGateway {
  return {
    async start(input) {
      const workflowId = workflowIdFor(input.exchangeId);
      await client.workflow.start(WORKFLOW_TYPE, {
        workflowId,
        taskQueue,
        args: [input],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
        staticSummary: `${input.request.method} ${input.request.target}`,
        typedSearchAttributes: [
          { key: MCP_METHOD, value: input.request.method },
          { key: MCP_TARGET, value: input.request.target },
          { key: EXCHANGE_STATUS, value: 'running' },
          { key: EXCHANGE_ROUND, value: 0 },
        ],
      });
      return workflowId;
    },

    async sendAnswers(exchangeId, answers) {
      try {
        await client.workflow.getHandle(workflowIdFor(exchangeId)).signal(answersSignal, answers);
        return true;
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      }
    },
  };
}
