// Pins the start-up check every handler set passes (built-in or a user's module): the shape of a
// HandlerSet with the SDK's wire schemas, only the keys the handler API knows, unique names, and
// the API's own declaration checks, each problem naming the tool (or prompt, or resource) at fault.
import { builtInHandlerSet } from '../../built-in-handlers';
import { BUILT_IN_HANDLER_SETS } from '../../lib/config';
import { defineTool, type ToolHandler } from '@durable-mcp/handlers';
import { checkHandlerSet, InvalidHandlerSet } from './handler-set-check';

const approveRefund = defineTool({
  tool: { name: 'approve_refund', inputSchema: { type: 'object', properties: { order: { type: 'string' } } } },
  run: () => ({ content: [] }),
});

const setOf = (...tools: unknown[]) => ({ name: 'refunds', tools });
const withTool = (changes: Record<string, unknown>) => ({ ...approveRefund, ...changes });
const withSchema = (inputSchema: Record<string, unknown>) =>
  withTool({ tool: { ...approveRefund.tool, inputSchema } }) as ToolHandler;

function problems(value: unknown): string[] {
  try {
    checkHandlerSet(value);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidHandlerSet);
    return (error as Error).message.split('\n  ');
  }
  return [];
}

describe('checkHandlerSet', () => {
  it('returns the set itself', () => {
    const set = setOf(approveRefund);
    expect(checkHandlerSet(set)).toBe(set);
  });

  it.each(BUILT_IN_HANDLER_SETS)('accepts the built-in set %s', (name) => {
    const set = builtInHandlerSet(name);
    expect(problems(set)).toEqual([]);
  });

  it('refuses what is not a handler set', () => {
    expect(problems(undefined)).toEqual(['Invalid input: expected object, received undefined']);
    expect(problems({ tools: [] })).toEqual(['name: Invalid input: expected string, received undefined']);
  });

  it('names the tool whose description breaks the wire schema, else its place in the list', () => {
    expect(problems(setOf(withSchema({ type: 'array' })))).toEqual([
      'tool approve_refund: tool.inputSchema.type: Invalid input: expected "object"',
    ]);
    expect(problems(setOf(approveRefund, { run: () => undefined }))).toEqual([
      'tools[1]: tool: Invalid input: expected object, received undefined',
    ]);
  });

  it('refuses a tool name MCP does not allow, naming the tool and the field', () => {
    expect(problems(setOf(withTool({ tool: { ...approveRefund.tool, name: 'has space' } })))).toEqual([
      'tool has space: tool.name: a tool name is 1-128 characters of A-Z a-z 0-9 _ - . only; "has space" has a space',
    ]);
    expect(problems(setOf(approveRefund, withTool({ tool: { ...approveRefund.tool, name: 'refund/order' } })))).toEqual(
      [
        'tool refund/order: tool.name: a tool name is 1-128 characters of A-Z a-z 0-9 _ - . only; "refund/order" has "/"',
      ],
    );
  });

  it('refuses a handler without its function, a misspelt key and a declaration out of range', () => {
    expect(problems(setOf(withTool({ run: 'refund' })))).toEqual(['tool approve_refund: run: must be a function']);
    expect(problems(setOf(withTool({ taskSuport: 'optional' })))).toEqual([
      'tool approve_refund: Unrecognized key: "taskSuport"',
    ]);
    expect(problems(setOf(withTool({ taskSupport: 'sometimes', roundActivity: 'remote' })))).toEqual([
      'tool approve_refund: roundActivity: Invalid option: expected one of "local"|"regular"',
      'tool approve_refund: taskSupport: Invalid option: expected one of "forbidden"|"optional"|"required"',
    ]);
  });

  it('accepts every declaration of the handler API, and refuses a priority outside 1 to 5', () => {
    const declared = withTool({ priority: 1, longWait: 'error', identicalCalls: 'separate', roundActivity: 'regular' });
    expect(problems(setOf(declared))).toEqual([]);
    expect(problems(setOf(withTool({ priority: 0 })))).toEqual([
      'tool approve_refund: priority: must be 1, 2, 3, 4 or 5',
    ]);
    expect(problems(setOf(withTool({ priority: 2.5 })))).toEqual([
      'tool approve_refund: priority: must be 1, 2, 3, 4 or 5',
    ]);
    const prompt = { prompt: { name: 'refund_policy' }, run: () => ({ messages: [] }), priority: '1' };
    expect(problems({ ...setOf(approveRefund), prompts: [prompt] })).toEqual([
      'prompt refund_policy: priority: must be 1, 2, 3, 4 or 5',
    ]);
  });

  it('checks prompts and resources too', () => {
    const set = {
      ...setOf(approveRefund),
      prompts: [{ prompt: { name: 'refund_policy' }, run: 'no' }],
      resources: [{ resource: { uri: 'refunds://policy' }, read: () => ({ contents: [] }) }],
    };
    expect(problems(set)).toEqual([
      'prompt refund_policy: run: must be a function',
      'resource refunds://policy: resource.name: Invalid input: expected string, received undefined',
    ]);
  });

  it('refuses two tools of one name', () => {
    expect(problems(setOf(approveRefund, approveRefund))).toEqual(['tool approve_refund: declared more than once']);
  });

  it("runs the API's declaration checks: the schema compiles, x-mcp-header annotations are valid", () => {
    const [uncompilable] = problems(setOf(withSchema({ type: 'object', properties: { amount: { type: 'money' } } })));
    expect(uncompilable).toMatch(/^handler set refunds, tool approve_refund: inputSchema does not compile: /);
    const [header] = problems(
      setOf(withSchema({ type: 'object', properties: { amount: { type: 'number', 'x-mcp-header': 'Amount' } } })),
    );
    expect(header).toMatch(/^handler set refunds, tool approve_refund: x-mcp-header at properties\.amount /);
  });
});
