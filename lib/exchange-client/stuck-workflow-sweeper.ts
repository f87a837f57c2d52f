/**
 * Ends the exchanges whose workflows cannot run. A workflow task that fails (a signal whose payload
 * does not decode, non-determinism after a bad deploy, a payload over Temporal's limits, a bug) is
 * retried by Temporal for ever, and while it fails no round timer fires: the exchange would stay
 * running, its caller told "come back" for ever. So every STUCK_WORKFLOW_SWEEP_MS each API replica
 * asks Temporal about the exchanges whose workflow tasks Temporal itself reports failing (one
 * visibility query, however many exchanges wait on people), then about a few running exchanges
 * whose rows have not moved for STUCK_WORKFLOW_AFTER_MS (claimed in Postgres,
 * lib/db/stuck-checks-pg.ts, so no two replicas ask about one at once): the fallback for a server
 * that reports no problems, or that reports them late (after a few failures in a row); one
 * whose workflow tasks have failed for that long is terminated with a reason naming the class of
 * failure (lib/exchange/stuck-causes.ts), and its ending is recorded as any ending Temporal left
 * unrecorded is (exchange-reconciler.ts), so every leg of either era reads it. Rounds recorded
 * before stand. A rollback within the bound saves the exchange: its tasks then complete.
 */
import type { Pool } from 'pg';
import { postgresErrorFields } from '../db/connection-loss';
import { createStuckChecksPg, type StuckChecks } from '../db/stuck-checks-pg';
import { apiMetrics } from '../metrics/api-metrics';
import { stuckTerminationReason, type StuckCause } from '../exchange/stuck-causes';
import { exchangeLogger, type Logger } from '../log';
import type { ExchangeReconciler } from './exchange-reconciler';
import { workflowIdFor } from './workflow-messages';
import type { WorkflowTaskProbe } from './workflow-task-probe';

export interface StuckSweepOptions {
  /** STUCK_WORKFLOW_AFTER_MS: how long a workflow's tasks may keep failing before its exchange is ended. */
  afterMs: number;
  /** STUCK_WORKFLOW_SWEEP_MS: how often this replica looks. */
  everyMs: number;
  /** STUCK_WORKFLOW_SWEEP_BATCH: the most exchanges one look asks Temporal about. */
  batch: number;
}

export interface StuckSweepDeps {
  checks: StuckChecks;
  probe: WorkflowTaskProbe;
  reconciler: ExchangeReconciler;
  log: Logger;
  /** Told of each workflow this replica terminated, by class (the metric). */
  onEnded?: (cause: StuckCause) => void;
}

/**
 * How long before an exchange found running is asked about again: half the bound, so a workflow
 * whose tasks begin to fail just after a check is ended at most half the bound late.
 */
export const recheckMs = (afterMs: number) => Math.max(1, Math.floor(afterMs / 2));

export function createStuckWorkflowSweep(deps: StuckSweepDeps, options: StuckSweepOptions) {
  const { checks, probe, reconciler, log } = deps;

  /** Asks about one exchange and acts on the answer; true when its workflow was terminated here. */
  async function check(exchangeId: string): Promise<boolean> {
    const view = await probe.inspect(exchangeId);
    // Closed without a recorded ending (terminated elsewhere, say): recorded now rather than at the idle sweep.
    if (view.state === 'closed') {
      await reconciler.reconcile(exchangeId);
      return false;
    }
    if (view.state === 'running') return false;
    const failingForMs = Date.now() - view.failingSince;
    if (failingForMs < options.afterMs) {
      await checks.dueAt(exchangeId, view.failingSince + options.afterMs);
      return false;
    }
    const ended = await probe.terminate(exchangeId, stuckTerminationReason(view.cause, failingForMs, view.attempt));
    if (ended) {
      deps.onEnded?.(view.cause);
      exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId) }).warn(
        { cause: view.cause, attempt: view.attempt, failingForMs },
        'workflow tasks kept failing: workflow terminated, exchange ended',
      );
    }
    await reconciler.reconcile(exchangeId);
    return ended;
  }

  let unreported = false;
  /** Temporal's reported problems; none from a server whose visibility cannot be asked (said once). */
  async function reportedByTemporal(): Promise<string[]> {
    try {
      return await probe.reported(options.batch);
    } catch (error) {
      if (!unreported)
        log.warn({ err: error }, "Temporal's reported problems cannot be read; only idle exchanges are checked");
      unreported = true;
      return [];
    }
  }

  let sweeping = false;
  /** One look; how many exchanges it ended. Never throws: what failed is logged and asked about again later. */
  async function sweep(): Promise<number> {
    if (sweeping) return 0;
    sweeping = true;
    let ended = 0;
    const checked = new Set<string>();
    const checkAll = async (exchangeIds: readonly string[]) => {
      for (const exchangeId of exchangeIds) {
        if (checked.has(exchangeId)) continue;
        checked.add(exchangeId);
        try {
          if (await check(exchangeId)) ended += 1;
        } catch (error) {
          exchangeLogger(log, { exchangeId, workflowId: workflowIdFor(exchangeId) }).warn(
            { err: error },
            'could not check whether the workflow is stuck; will ask again',
          );
        }
      }
    };
    try {
      await checkAll(await reportedByTemporal());
      await checkAll(await checks.claim(options.afterMs, recheckMs(options.afterMs), options.batch));
    } catch (error) {
      log.warn(postgresErrorFields(error), 'stuck workflow sweep failed; will try again');
    } finally {
      sweeping = false;
    }
    return ended;
  }

  return { sweep };
}

/**
 * Runs the sweep every `everyMs` until stopped, on the exchanges of `pool`, counting each workflow
 * it ends in the API's `mcp_stuck_workflows_ended_total`.
 */
export function startStuckWorkflowSweeper(
  deps: Omit<StuckSweepDeps, 'checks' | 'onEnded'> & { pool: Pool },
  options: StuckSweepOptions,
) {
  const { pool, ...rest } = deps;
  const { sweep } = createStuckWorkflowSweep(
    { ...rest, checks: createStuckChecksPg(pool), onEnded: (cause) => apiMetrics.stuckWorkflowEnded(cause) },
    options,
  );
  const timer = setInterval(() => void sweep(), options.everyMs);
  timer.unref();
  return { sweep, stop: () => clearInterval(timer) };
}
