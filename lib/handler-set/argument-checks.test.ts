// Pins the start-up compiled arguments check: a tool call whose arguments break the inputSchema
// is refused with an isError result (both dialects), a schema that does not compile stops the
// start naming its tool, and a prompt's missing required argument is -32602 with its path.
import { definePrompt, type HandlerSet } from '@durable-mcp/handlers';
import { setOfToolSchemas } from './test-sets';
import { INVALID_PARAMS } from '../protocol/json-rpc-codes';
import { createArgumentChecks } from './argument-checks';

const setOf = (...inputSchemas: Array<Record<string, unknown>>): HandlerSet => ({
  ...setOfToolSchemas(...inputSchemas),
  prompts: [
    definePrompt({
      prompt: { name: 'p', arguments: [{ name: 'who', required: true }, { name: 'tone' }] },
      run: () => ({ messages: [] }),
    }),
  ],
});

const call = (target: string, args: Record<string, unknown>) =>
  ({ method: 'tools/call', target, params: { name: target, arguments: args } }) as const;
const textOf = (result: Record<string, unknown> | undefined) =>
  (result?.content as Array<{ text: string }> | undefined)?.[0]?.text;

describe('createArgumentChecks', () => {
  const checks = createArgumentChecks(
    setOf(
      { properties: { service: { type: 'string' }, n: { type: 'integer' } }, required: ['service'] },
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        properties: { tags: { type: 'array', items: { type: 'string' } } },
      },
    ),
  );

  it('lets valid arguments through', () => {
    expect(checks.refusal(call('t0', { service: 'db', n: 2 }))).toBeUndefined();
    expect(checks.refusal(call('t1', { tags: ['a'] }))).toBeUndefined();
  });

  it('answers invalid arguments with an isError result naming each path', () => {
    const refusal = checks.refusal(call('t0', { n: 'two' }));
    expect(refusal?.isError).toBe(true);
    expect(textOf(refusal)).toBe(
      'Invalid arguments for tool t0:\narguments.service: is required\narguments.n: must be integer',
    );
    expect(textOf(checks.refusal(call('t1', { tags: [1] })))).toContain('arguments.tags.0: must be string');
  });

  it('refuses a schema that does not compile, naming the set and the tool', () => {
    expect(() => createArgumentChecks(setOf({ properties: { a: { type: 'nonsense' } } }))).toThrow(
      /^handler set test, tool t0: inputSchema does not compile/,
    );
  });

  it('refuses a prompt without a required argument with -32602 and its path', () => {
    expect(
      checks.refusal({ method: 'prompts/get', target: 'p', params: { name: 'p', arguments: { who: 'x' } } }),
    ).toBeUndefined();
    expect(() => checks.refusal({ method: 'prompts/get', target: 'p', params: { name: 'p', arguments: {} } })).toThrow(
      expect.objectContaining({ code: INVALID_PARAMS, data: { path: 'params.arguments.who' } }),
    );
  });
});
