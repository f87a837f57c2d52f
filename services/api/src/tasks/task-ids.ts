/**
 * A task's id and TTL, and its row written before anyone is told of it (the Tasks extension,
 * SEP-2663, and the 2025-11-25 wire's `params.task`): what the legs of an exchange that runs as a
 * task use when they begin it.
 */
import { randomBytes } from 'node:crypto';
import type { TaskRecord, TaskStore } from '../../../../lib/db/task-store';
import type { TaskMode } from '../../../../lib/exchange/types';

/** The shortest TTL a task is given, whatever its client asked for (TASK_TTL_MS has the same floor). */
export const MIN_TASK_TTL_MS = 1000;

/** A task id: 192 random bits, so that no one can guess another's (SEP-2663 security considerations). */
export const newTaskId = () => randomBytes(24).toString('base64url');

/** A task's TTL: TASK_TTL_MS (`limitMs`), or the shorter one its client asked for, never under the floor. */
export function taskTtlOf(limitMs: number, requestedMs?: number): number {
  return Math.min(limitMs, Math.max(requestedMs ?? limitMs, MIN_TASK_TTL_MS));
}

/** What the workflow is told of its task. */
export const taskModeOf = (task: TaskRecord): TaskMode => ({
  taskId: task.taskId,
  ttlMs: task.ttlMs,
  pollIntervalMs: task.pollIntervalMs,
  expiresAt: task.expiresAt.getTime(),
});

/**
 * Writes the task row of an exchange (or reads the one it has), before anyone is told of it. Its
 * TTL is TASK_TTL_MS, or the shorter one a 2025-11-25 client asked for (`params.task.ttl`).
 */
export function createTaskRows(tasks: TaskStore, limits: { taskTtlMs: number; taskPollIntervalMs: number }) {
  return (exchangeId: string, principal: string, requestedTtlMs?: number): Promise<TaskRecord> =>
    tasks.create({
      taskId: newTaskId(),
      exchangeId,
      principal,
      ttlMs: taskTtlOf(limits.taskTtlMs, requestedTtlMs),
      pollIntervalMs: limits.taskPollIntervalMs,
    });
}

export type TaskRows = ReturnType<typeof createTaskRows>;
