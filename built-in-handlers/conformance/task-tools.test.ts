// Pins the Tasks fixtures as the suite's tasks scenarios need them: what each declares (support,
// when its task begins), a tool error that stays a result, a protocol error that ends the call,
// one ask and two parallel asks, and the name gathered over MRTR reaching the task's result.
import { executeHandler } from '../../activities/handler-execution';
import type { ExchangeInput } from '../../lib/exchange/types';
import { findTool } from '../../lib/handler-set/lookup';
import { testContext } from '@durable-mcp/testing';
import { conformanceHandlers as set } from '.';

const tool = (name: string) => findTool(set, name)!;
const elicited = (content: Record<string, unknown>) => ({ action: 'accept', content });
const textOf = (result: unknown) => (result as { content: Array<{ text?: string }> }).content[0]?.text ?? '';
const aborted = () => {
  const controller = new AbortController();
  controller.abort();
  return controller.signal;
};

describe('tasks fixtures', () => {
  it('declare their task support as the scenarios register them', () => {
    const expected = {
      greet: ['forbidden', 'at-call'],
      slow_compute: ['optional', 'at-call'],
      failing_job: ['required', 'at-call'],
      protocol_error_job: ['optional', 'at-call'],
      confirm_delete: ['optional', 'at-call'],
      multi_input: ['optional', 'at-call'],
      test_tool_with_task: ['required', 'after-input'],
    };
    const declared = Object.fromEntries(
      Object.keys(expected).map((name) => [
        name,
        [tool(name).taskSupport ?? 'forbidden', tool(name).taskBegins ?? 'at-call'],
      ]),
    );
    expect(declared).toEqual(expected);
  });

  it('greet answers at once; slow_compute stops waiting when its task is cancelled', async () => {
    expect(textOf(await tool('greet').run({ name: 'World' }, testContext()))).toBe('Hello, World!');
    const started = Date.now();
    await tool('slow_compute').run({ seconds: 60 }, testContext({ signal: aborted() }));
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('failing_job reports a tool error; protocol_error_job ends the call with a JSON-RPC error', async () => {
    expect(await tool('failing_job').run({}, testContext({ signal: aborted() }))).toMatchObject({ isError: true });
    const exchange: ExchangeInput = {
      exchangeId: 'ex-1',
      era: 'modern',
      request: { method: 'tools/call', target: 'protocol_error_job', params: { name: 'protocol_error_job' } },
      principal: 'alice',
      clientCapabilities: {},
      roundTimeoutMs: 600_000,
      maxRounds: 8,
    };
    expect(await executeHandler(set, exchange, testContext())).toEqual({
      kind: 'error',
      error: { code: -32603, message: 'The job crashed before producing a result' },
    });
  });

  it('confirm_delete asks once; multi_input asks twice at once and completes on both answers', async () => {
    const ask = (await tool('confirm_delete').run({ filename: 'a.txt' }, testContext())) as { inputRequests: object };
    expect(Object.keys(ask.inputRequests)).toEqual(['confirm_delete']);
    const done = await tool('confirm_delete').run(
      { filename: 'a.txt' },
      testContext({ inputResponses: { confirm_delete: elicited({ confirm: true }) } }),
    );
    expect(textOf(done)).toBe('Deleted a.txt.');
    const both = (await tool('multi_input').run({}, testContext())) as { inputRequests: object };
    expect(Object.keys(both.inputRequests)).toEqual(['first_input', 'second_input']);
    const answered = await tool('multi_input').run(
      {},
      testContext({
        inputResponses: { first_input: elicited({ name: 'Ada' }), second_input: elicited({ name: 'Grace' }) },
      }),
    );
    expect(textOf(answered)).toBe('Both answered: Ada and Grace.');
  });

  it('test_tool_with_task asks for the name, then puts it in its result', async () => {
    const ask = (await tool('test_tool_with_task').run({}, testContext())) as { inputRequests: object };
    expect(Object.keys(ask.inputRequests)).toEqual(['user_name']);
    const done = await tool('test_tool_with_task').run(
      {},
      testContext({ inputResponses: { user_name: elicited({ name: 'Alice' }) }, signal: aborted() }),
    );
    expect(textOf(done)).toContain('Alice');
  });
});
