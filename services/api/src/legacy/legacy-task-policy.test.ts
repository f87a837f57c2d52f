// Pins which legacy tools/call runs as a task: only on a session offered tasks, only with
// params.task, within the tool's taskSupport; the refusals are -32601 (-32602 for a malformed task).
import type { ToolHandler } from '@durable-mcp/handlers';
import { legacyTaskRequest } from './legacy-task-policy';

const tool = (taskSupport?: ToolHandler['taskSupport']) => ({
  tool: { name: 't', inputSchema: { type: 'object' as const } },
  ...(taskSupport ? { taskSupport } : {}),
});
const code = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return { code: (error as { code: number }).code, data: (error as { data: unknown }).data };
  }
  return undefined;
};

describe('legacy task policy', () => {
  it('runs a call as a task when it asks for one and its tool allows it, with the TTL asked for', () => {
    expect(legacyTaskRequest(tool('optional'), { name: 't', task: {} }, true)).toEqual({});
    expect(legacyTaskRequest(tool('required'), { name: 't', task: { ttl: 5000 } }, true)).toEqual({ ttlMs: 5000 });
    expect(legacyTaskRequest(tool('optional'), { name: 't' }, true)).toBeUndefined();
  });

  it('refuses a task the tool forbids, and no task when the tool requires one, with -32601', () => {
    expect(code(() => legacyTaskRequest(tool(), { name: 't', task: {} }, true))).toEqual({
      code: -32601,
      data: { path: 'params.task', taskSupport: 'forbidden' },
    });
    expect(code(() => legacyTaskRequest(tool('required'), { name: 't' }, true))).toMatchObject({
      code: -32601,
      data: { taskSupport: 'required' },
    });
  });

  it('refuses a malformed params.task with -32602 and its path', () => {
    expect(code(() => legacyTaskRequest(tool('optional'), { task: { ttl: -1 } }, true))).toMatchObject({
      code: -32602,
      data: { path: 'params.task.ttl' },
    });
    expect(code(() => legacyTaskRequest(tool('optional'), { task: 'yes' }, true))).toMatchObject({
      code: -32602,
      data: { path: 'params.task' },
    });
  });

  it('means nothing to a session of an older revision: params.task ignored, a required tool runs as a call', () => {
    expect(legacyTaskRequest(tool('optional'), { task: {} }, false)).toBeUndefined();
    expect(legacyTaskRequest(tool('required'), {}, false)).toBeUndefined();
    expect(legacyTaskRequest(tool(), { task: 'anything' }, false)).toBeUndefined();
  });
});
