/**
 * What the Tasks extension's wire says of a task (SEP-2663), as pure functions of what Postgres
 * holds: the `CreateTaskResult` a task-creating call answers with, and the `DetailedTask` of
 * tasks/get. Status follows the exchange: its last round an ask with keys still unanswered is
 * `input_required` (with only those keys), an ending is `completed` (a tool error included,
 * `isError`), `cancelled`, or `failed` (any other JSON-RPC error, inlined); anything else is
 * `working`. No requestState appears on this wire.
 */
import type { TaskRecord, TaskSnapshot } from '../../../../lib/db/task-store';
import { wireInputRequests } from '../../../../lib/protocol/wire-asks';
import { taskPhase } from './task-phase';

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

export function detailedTask(snapshot: TaskSnapshot, questionPageUrl?: (questionId: string) => string): WireTask {
  const at = snapshot.lastUpdatedAt;
  const phase = taskPhase(snapshot, [], questionPageUrl);
  switch (phase.kind) {
    case 'working':
      return phase.waitingOn !== undefined
        ? { ...envelope(snapshot, 'working', at), statusMessage: phase.waitingOn }
        : envelope(snapshot, 'working', at);
    case 'input_required':
      return { ...envelope(snapshot, 'input_required', at), inputRequests: wireInputRequests(phase.outstanding) };
    case 'complete':
      return { ...envelope(snapshot, 'completed', at), result: phase.result };
    case 'cancelled':
      return { ...envelope(snapshot, 'cancelled', at), statusMessage: phase.error.message };
    case 'failed': {
      const { code, message, data } = phase.error;
      return {
        ...envelope(snapshot, 'failed', at),
        statusMessage: message,
        error: { code, message, ...(data === undefined ? {} : { data }) },
      };
    }
  }
}
