// Pins when a tools/call runs as a task: the tool's declared support and this request's declaration
// of the extension, and the -32021 a required task answers a client that did not declare it.
import { TASKS_EXTENSION } from '../../../../lib/protocol/tasks';
import type { RpcError } from '../../../../lib/protocol/rpc-error';
import { taskBeginsFor } from './task-policy';

const tool = (taskSupport?: 'forbidden' | 'optional' | 'required', taskBegins?: 'at-call' | 'after-input') => ({
  tool: { name: 'job', inputSchema: { type: 'object' as const } },
  ...(taskSupport ? { taskSupport } : {}),
  ...(taskBegins ? { taskBegins } : {}),
});
const declaring = { extensions: { [TASKS_EXTENSION]: {} } };

describe('taskBeginsFor', () => {
  it('never makes a task of a tool that did not declare support, nor for an unknown tool', () => {
    expect(taskBeginsFor(tool(), declaring)).toBeUndefined();
    expect(taskBeginsFor(tool('forbidden'), declaring)).toBeUndefined();
    expect(taskBeginsFor(undefined, declaring)).toBeUndefined();
  });

  it('makes a task for a declaring client, at the call unless the tool begins it after its input', () => {
    expect(taskBeginsFor(tool('optional'), declaring)).toBe('at-call');
    expect(taskBeginsFor(tool('required'), declaring)).toBe('at-call');
    expect(taskBeginsFor(tool('required', 'after-input'), declaring)).toBe('after-input');
  });

  it('answers an optional task over MRTR to a client that did not declare the extension on this request', () => {
    expect(taskBeginsFor(tool('optional'), {})).toBeUndefined();
    expect(taskBeginsFor(tool('optional'), { extensions: {} })).toBeUndefined();
    expect(taskBeginsFor(tool('optional'), { extensions: [TASKS_EXTENSION] })).toBeUndefined();
  });

  it('refuses a required task to such a client with -32021 naming the extension', () => {
    let refusal: RpcError | undefined;
    try {
      taskBeginsFor(tool('required'), { elicitation: {} });
    } catch (error) {
      refusal = error as RpcError;
    }
    expect(refusal?.toJson()).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
  });
});
