/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on the 2026-07-28 wire: its
 * identifier, how a request declares it, and the refusals it defines. Task creation is
 * server-directed: a client only says, per request, that it can take a task.
 */
import { missingCapability } from './error-catalog';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The methods the extension adds; `tasks/result` and `tasks/list` (2025-11-25) were removed and are unknown here. */
export const TASK_METHODS = ['tasks/get', 'tasks/update', 'tasks/cancel'] as const;
export type TaskMethod = (typeof TASK_METHODS)[number];

/** Whether this request's client capabilities declare the extension (`extensions[TASKS_EXTENSION]`). */
export function declaresTasks(clientCapabilities: Record<string, unknown>): boolean {
  const extensions = clientCapabilities.extensions;
  return (
    typeof extensions === 'object' &&
    extensions !== null &&
    !Array.isArray(extensions) &&
    Object.hasOwn(extensions, TASKS_EXTENSION)
  );
}

/** -32021 for a request that needs the extension from a client that did not declare it on that request. */
export const tasksNotDeclared = (what: string) =>
  missingCapability(`Missing required client capability: ${what} needs the ${TASKS_EXTENSION} extension`, {
    extensions: { [TASKS_EXTENSION]: {} },
  });
