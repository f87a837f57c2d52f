/**
 * Records the endings the workflow could not record itself. A workflow terminated from the Web UI
 * or the CLI, timed out, reset, failed, or removed by namespace retention closes without writing
 * anything to Postgres; a client waiting on it would otherwise be told "come back" forever. So
 * when a signal finds no workflow, or a wait ends with no outcome, the API asks Temporal for the
 * workflow's state and, if it is closed with the exchange still open, records the ending once
 * (first write wins, as for every round) for every leg of either era to read.
 */
import type { ExchangeStore } from '../db/exchange-store';
import type { RoundRecord } from '../exchange/types';
import type { OutcomeError } from '../exchange/types';
import { exchangeLogger, type Logger } from '../log';
import { exchangeCancelled, exchangeTerminated, workflowFailed, workflowStuck } from '../protocol/exchange-errors';
import { stuckCauseOfReason } from '../exchange/stuck-causes';
import { workflowIdFor } from './workflow-messages';
import type { ExchangeGateway, WorkflowStatus } from './exchange-gateway';
import type { WorkflowTaskProbe } from './workflow-task-probe';

/**
 * The error a closed workflow's status means for its exchange. A workflow the stuck workflow sweep
 * terminated says so in its `terminationReason`, which names the class of its failures.
 */
export function endingFor(
  exchangeId: string,
  status: Exclude<WorkflowStatus, 'RUNNING'>,
  terminationReason?: string,
): OutcomeError {
  const stuck = status === 'TERMINATED' ? stuckCauseOfReason(terminationReason) : undefined;
  if (stuck) return workflowStuck(exchangeId, stuck);
  switch (status) {
    case 'CANCELLED':
      return exchangeCancelled(exchangeId, undefined, 'operator');
    case 'FAILED':
      return workflowFailed(exchangeId, status);
    default:
      return exchangeTerminated(exchangeId, status);
  }
}

export interface ExchangeReconciler {
  /**
   * The exchange's ending, recorded now if its workflow is closed without one; undefined while it
   * runs, or when Temporal or Postgres cannot be asked (the next wait asks again): never throws,
   * so a leg that cannot reconcile still answers "come back".
   */
  reconcile(exchangeId: string): Promise<RoundRecord | undefined>;
}

export function createExchangeReconciler(deps: {
  gateway: ExchangeGateway;
  store: ExchangeStore;
  log: Logger;
  /** Where a terminated workflow's reason is read (a stuck workflow's names its class); without it, none is. */
  probe?: Pick<WorkflowTaskProbe, 'terminationReason'>;
  /** Told of each ending this reconciler wrote itself (not one that stood already), for the metrics. */
  onEndingRecorded?: (exchangeId: string, outcome: RoundRecord['outcome']) => void;
}): ExchangeReconciler {
  const { gateway, store, log } = deps;
  async function reconcile(exchangeId: string): Promise<RoundRecord | undefined> {
    const status = await gateway.workflowStatus(exchangeId);
    // A paused workflow still runs (an operator resumes it); nothing has ended.
    if (status === 'RUNNING' || status === 'PAUSED') return undefined;
    const last = await store.lastRound(exchangeId);
    if (last && last.outcome.kind !== 'ask') return last;
    // A round activity still running for the closed workflow may record its round first; an ask
    // there moves the ending to the round after it (as the workflow's own ending does).
    const reason = status === 'TERMINATED' ? await deps.probe?.terminationReason(exchangeId) : undefined;
    const error = endingFor(exchangeId, status, reason);
    let round = (last?.round ?? 0) + 1;
    let record = await store.recordEnding({ exchangeId, round, outcome: { kind: 'error', error } });
    while (record.outcome.kind === 'ask') {
      round += 1;
      record = await store.recordEnding({ exchangeId, round, outcome: { kind: 'error', error } });
    }
    if (record.recordedNow) deps.onEndingRecorded?.(exchangeId, record.outcome);
    exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId), round }).warn(
      { workflowStatus: status, outcome: record.outcome.kind },
      'workflow closed without recording an ending; ending recorded',
    );
    return record;
  }

  return {
    reconcile: (exchangeId) =>
      reconcile(exchangeId).catch((error: unknown) => {
        exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId) }).warn(
          { err: error },
          'could not reconcile the exchange with Temporal; will ask again',
        );
        return undefined;
      }),
  };
}
