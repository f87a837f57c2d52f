/**
 * What the 2025-11-25 wire says of a task, as pure functions of what Postgres holds: the `Task` of
 * a `CreateTaskResult`, `tasks/get` and `tasks/cancel`, and the `tasks/result` message. Status
 * follows the exchange as it does on the 2026-07-28 wire (task-view.ts), with this revision's
 * rules: a tool error (`isError: true`) is `failed`, the Task carries `ttl` and `pollInterval`
 * (not `ttlMs`, `pollIntervalMs`), and never the questions or the result: the client receives
 * those from `tasks/result`, whose answer is the call's own result or error.
 */
import type { TaskRecord, TaskSnapshot } from '../../../../lib/db/task-store';
import { RELATED_TASK_META_KEY } from '../../../../lib/protocol/legacy-tasks';
import { taskPhase } from '../tasks/task-phase';

export type LegacyTaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface LegacyWireTask {
  taskId: string;
  status: LegacyTaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number;
  pollInterval: number;
}

const TERMINAL: ReadonlySet<LegacyTaskStatus> = new Set(['completed', 'failed', 'cancelled']);
export const isTerminal = (task: Pick<LegacyWireTask, 'status'>) => TERMINAL.has(task.status);

const envelope = (
  task: TaskRecord,
  status: LegacyTaskStatus,
  lastUpdatedAt: Date,
  statusMessage?: string,
): LegacyWireTask => ({
  taskId: task.taskId,
  status,
  ...(statusMessage !== undefined ? { statusMessage } : {}),
  createdAt: task.createdAt.toISOString(),
  lastUpdatedAt: lastUpdatedAt.toISOString(),
  ttl: task.ttlMs,
  pollInterval: task.pollIntervalMs,
});

/** The `CreateTaskResult` a task-augmented tools/call answers with at once. */
export const createTaskResult = (task: TaskRecord) => ({ task: envelope(task, 'working', task.createdAt) });

/**
 * The task as it stands. `answeredKeys` are the keys of the last ask the client already answered
 * (its responses to the server's requests): with all of them in, the next round is on its way.
 */
export function legacyTask(
  snapshot: TaskSnapshot,
  answeredKeys: readonly string[] = [],
  questionPageUrl?: (questionId: string) => string,
): LegacyWireTask {
  const at = snapshot.lastUpdatedAt;
  const phase = taskPhase(snapshot, answeredKeys, questionPageUrl);
  switch (phase.kind) {
    case 'working':
      return envelope(snapshot, 'working', at, phase.waitingOn);
    case 'input_required': {
      const open = Object.keys(phase.outstanding).length;
      const what = open === 1 ? 'an answer' : `${open} answers`;
      return envelope(snapshot, 'input_required', at, `Waiting for ${what}: tasks/result delivers the requests`);
    }
    case 'complete':
      // This revision reports a tool error as a failed task; tasks/result still returns the result.
      return phase.result.isError === true
        ? envelope(snapshot, 'failed', at, 'The tool reported an error: tasks/result returns it')
        : envelope(snapshot, 'completed', at);
    case 'cancelled':
    case 'failed':
      return envelope(snapshot, phase.kind, at, phase.error.message);
  }
}

/** `_meta` naming the task a message belongs to. */
export const relatedTaskMeta = (taskId: string) => ({ [RELATED_TASK_META_KEY]: { taskId } });

/** A tools/call result as tasks/result returns it: unchanged, but for the related-task `_meta`. */
export function taskResult(result: Record<string, unknown>, taskId: string): Record<string, unknown> {
  const meta = (result._meta ?? {}) as Record<string, unknown>;
  return { ...result, _meta: { ...meta, ...relatedTaskMeta(taskId) } };
}

/**
 * The call's final response (as its stream holds it, under the tools/call's id) re-addressed to the
 * tasks/result request that delivers it: the result with the related-task `_meta`, or the error as it is.
 */
export function asTaskResultResponse(
  response: Record<string, unknown>,
  requestId: string | number,
  taskId: string,
): Record<string, unknown> {
  const { result, error } = response as { result?: Record<string, unknown>; error?: unknown };
  return result !== undefined
    ? { jsonrpc: '2.0', id: requestId, result: taskResult(result, taskId) }
    : { jsonrpc: '2.0', id: requestId, error };
}
