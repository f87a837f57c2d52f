/**
 * Tasks on the 2025-11-25 wire (the revision's experimental `tasks` utility), as the legacy era
 * knows them: negotiated at `initialize` by the server's `tasks` capability, asked for per call by
 * `params.task` on `tools/call`, followed by `tasks/get`, `tasks/result` and `tasks/cancel`. The
 * 2026-07-28 Tasks extension (tasks.ts) is another wire for the same exchanges.
 */
import { z } from 'zod';
import { RpcError } from './rpc-error';
import { METHOD_NOT_FOUND } from './json-rpc-codes';

/** The one revision that has tasks; older ones are served none (neither capability nor taskSupport). */
export const LEGACY_TASKS_VERSION = '2025-11-25';

/** `_meta` key tying a message to its task (a task's server-to-client requests, and its tasks/result). */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/** The methods this revision adds for tasks. */
export const LEGACY_TASK_METHODS = ['tasks/get', 'tasks/result', 'tasks/cancel', 'tasks/list'] as const;
export type LegacyTaskMethod = (typeof LEGACY_TASK_METHODS)[number];

export const isLegacyTaskMethod = (method: string | undefined): method is LegacyTaskMethod =>
  (LEGACY_TASK_METHODS as readonly (string | undefined)[]).includes(method);

/**
 * The server's `tasks` capability: tools/call may run as a task, and tasks may be listed and
 * cancelled. A task belongs to its session, so tasks/list lists exactly what tasks/get can see.
 */
export const LEGACY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** Whether a session negotiated a revision with tasks, over the transport that carries them. */
export function servesLegacyTasks(session: { protocolVersion: string; transport: string }): boolean {
  return session.protocolVersion === LEGACY_TASKS_VERSION && session.transport === 'streamable-http';
}

/** `params.task` of a task-augmented tools/call (`TaskMetadata`): the TTL the client would like, in ms. */
export const TaskMetadataSchema = z.object({ ttl: z.number().int().positive().optional() }).passthrough();

/**
 * -32601 for a call whose task augmentation the tool refuses: a task on a tool whose taskSupport
 * is `forbidden`, or no task on one whose taskSupport is `required` (the revision's MUST).
 */
export const taskSupportViolation = (tool: string, support: 'forbidden' | 'required') =>
  new RpcError(
    'methodNotFound',
    METHOD_NOT_FOUND,
    support === 'required'
      ? `Task augmentation required: the tool ${tool} runs only as a task (params.task)`
      : `Task augmentation not supported: the tool ${tool} does not run as a task`,
    { path: 'params.task', taskSupport: support },
  );
