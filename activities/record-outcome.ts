/**
 * Records an outcome the workflow decided on its own (an expiry), in the same table and with the
 * same announcement as a handler's, so the API answers the next leg with it.
 */
import type { ExchangeInput, RoundOutcome, RoundSummary } from '../lib/exchange/types';
import { workflowIdFor } from '../lib/exchange-client/workflow-messages';
import { exchangeLogger } from '../lib/log';
import { summarize, type RoundDeps } from './run-round';
import { observeEnding } from '../lib/metrics/worker-metrics';

export interface RecordOutcomeInput {
  exchange: ExchangeInput;
  round: number;
  /** Always an error here: the workflow records endings (expiry, cancel, a round that could not run). */
  outcome: Extract<RoundOutcome, { kind: 'error' }>;
}

export function createRecordOutcome(deps: Pick<RoundDeps, 'store' | 'log' | 'handlers'>) {
  return async function recordOutcome(input: RecordOutcomeInput): Promise<RoundSummary> {
    const workflowId = workflowIdFor(input.exchange.exchangeId);
    const record = await deps.store.recordRound({ ...input, workflowId });
    observeEnding(deps.handlers, input.exchange, record);
    const summary = summarize(record);
    exchangeLogger(deps.log, { exchangeId: input.exchange.exchangeId, workflowId, round: input.round }).info(
      { outcome: record.outcome.kind, status: summary.status },
      'exchange outcome recorded',
    );
    return summary;
  };
}
