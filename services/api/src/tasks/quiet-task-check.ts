/**
 * A running task whose workflow Temporal closed without recording an ending (an operator's
 * terminate, say) reads as running for ever. A read of a task that nothing was recorded for in
 * `afterMs` asks Temporal (at most once per `afterMs` per task on a replica), and the reconciler
 * records the ending, so no client polls such a task until its TTL. Shared by both task wires.
 */
import type { TaskSnapshot } from '../../../../lib/db/task-store';
import type { ExchangeReconciler } from '../../../../lib/exchange-client/exchange-reconciler';

/** Tasks whose workflow this replica asked Temporal about lately, and when; bounded, the oldest forgotten first. */
const MAX_RECONCILED = 10_000;

/** Returns a check: true when it recorded an ending for the task just now (the caller re-reads it). */
export function createQuietTaskCheck(reconciler: ExchangeReconciler, afterMs: number) {
  const reconciledAt = new Map<string, number>();
  return async function endedUnrecorded(task: TaskSnapshot): Promise<boolean> {
    const now = Date.now();
    if (task.exchangeStatus !== 'running' || now - task.lastUpdatedAt.getTime() < afterMs) return false;
    if (now - (reconciledAt.get(task.taskId) ?? 0) < afterMs) return false;
    reconciledAt.delete(task.taskId);
    reconciledAt.set(task.taskId, now);
    if (reconciledAt.size > MAX_RECONCILED) reconciledAt.delete(reconciledAt.keys().next().value!);
    return (await reconciler.reconcile(task.exchangeId)) !== undefined;
  };
}
