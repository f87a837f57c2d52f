/**
 * A 2026-07-28 client of the Tasks extension (SEP-2663) over bare HTTP, for tests that follow one
 * task across restarts and principals: each request declares the extension (and elicitation, or
 * the `capabilities` given), and carries `headers` (a bearer token, say).
 */
import { TASKS_EXTENSION } from '../../lib/protocol/tasks';
import { rawCall, type RpcReply } from './raw-mcp';

export const TASK_CAPABILITIES = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };

export interface TaskClient {
  call(tool: string, args?: Record<string, unknown>): Promise<RpcReply>;
  get(taskId: string): Promise<RpcReply>;
  update(taskId: string, inputResponses: Record<string, unknown>): Promise<RpcReply>;
  cancel(taskId: string): Promise<RpcReply>;
  /** Polls tasks/get until `done` holds for the task's result, or fails after `timeoutMs`. */
  until(
    taskId: string,
    done: (task: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
}

export function taskClient(
  url: () => string,
  headers: Record<string, string> = {},
  capabilities: Record<string, unknown> = TASK_CAPABILITIES,
): TaskClient {
  const send = (method: string, params: Record<string, unknown>) =>
    rawCall(url(), method, params, capabilities, { headers });
  const client: TaskClient = {
    call: (tool, args = {}) => send('tools/call', { name: tool, arguments: args }),
    get: (taskId) => send('tasks/get', { taskId }),
    update: (taskId, inputResponses) => send('tasks/update', { taskId, inputResponses }),
    cancel: (taskId) => send('tasks/cancel', { taskId }),
    async until(taskId, done, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const reply = await client.get(taskId);
        const task = reply.body.result;
        if (task && done(task)) return task;
        if (Date.now() > deadline)
          throw new Error(`task ${taskId} never got there; last: ${JSON.stringify(reply.body)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
  return client;
}

/** The task a task-creating call answered with, checked to be one. */
export function createdTaskId(reply: RpcReply): string {
  const result = reply.body.result;
  if (result?.resultType !== 'task' || typeof result.taskId !== 'string')
    throw new Error(`expected a CreateTaskResult, got ${JSON.stringify(reply.body)}`);
  return result.taskId;
}
