/**
 * What the Tasks extension's wire says of a task (SEP-2663), as pure functions of what Postgres
 * holds: the `CreateTaskResult` a task-creating call answers with, and the `DetailedTask` of
 * tasks/get. Status follows the exchange: its last round an ask with keys still unanswered is
 * `input_required` (with only those keys), an ending is `completed` (a tool error included,
 * `isError`), `cancelled`, or `failed` (any other JSON-RPC error, inlined); anything else is
 * `working`. No requestState appears on this wire.
 */
import type { TaskRecord, TaskSnapshot } from '../../../../lib/db/task-store';
import { EXCHANGE_CANCELLED } from '../../../../lib/protocol/exchange-errors';

type WireTask = Record<string, unknown>;

const envelope = (task: TaskRecord, status: string, lastUpdatedAt: Date): WireTask => ({
  taskId: task.taskId,
  status,
  createdAt: task.createdAt.toISOString(),
  lastUpdatedAt: lastUpdatedAt.toISOString(),
  ttlMs: task.ttlMs,
  pollIntervalMs: task.pollIntervalMs,
});

/** The seed state a task-creating call answers with (`resultType: "task"` is added by the renderer). */
export const createdTask = (task: TaskRecord): WireTask => envelope(task, 'working', task.createdAt);

/** The keys of an ask that are still outstanding: asked, and not answered by tasks/update. */
export function outstandingRequests(
  inputRequests: Record<string, unknown>,
  answeredKeys: readonly string[],
): Record<string, unknown> {
  return Object.fromEntries(Object.entries(inputRequests).filter(([key]) => !answeredKeys.includes(key)));
}

export function detailedTask(snapshot: TaskSnapshot): WireTask {
  const round = snapshot.lastRound;
  const at = snapshot.lastUpdatedAt;
  if (!round) return envelope(snapshot, 'working', at);
  const { outcome } = round;
  switch (outcome.kind) {
    case 'ask': {
      const outstanding = outstandingRequests(outcome.inputRequests, snapshot.answeredKeys);
      // Every key answered: the next round is on its way.
      if (Object.keys(outstanding).length === 0 || snapshot.exchangeStatus !== 'running')
        return envelope(snapshot, 'working', at);
      return { ...envelope(snapshot, 'input_required', at), inputRequests: outstanding };
    }
    case 'complete':
      return { ...envelope(snapshot, 'completed', at), result: outcome.result };
    case 'error': {
      const { code, message, data } = outcome.error;
      if (code === EXCHANGE_CANCELLED) return { ...envelope(snapshot, 'cancelled', at), statusMessage: message };
      return {
        ...envelope(snapshot, 'failed', at),
        statusMessage: message,
        error: { code, message, ...(data === undefined ? {} : { data }) },
      };
    }
  }
}
