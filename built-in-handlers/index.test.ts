// Every handler set the service ships passes the checks the API compiles at start-up: its argument
// schemas compile, and its Mcp-Param-* declarations are valid.
import { BUILT_IN_HANDLER_SETS } from '../lib/config';
import { createArgumentChecks } from '../lib/handler-set/argument-checks';
import { toolParamHeaders } from '../lib/handler-set/tool-param-headers';
import { builtInHandlerSet } from '.';

const textOf = (result: Record<string, unknown> | undefined) =>
  (result?.content as Array<{ text: string }> | undefined)?.[0]?.text;

describe.each(BUILT_IN_HANDLER_SETS)('the built-in handler set %s', (name) => {
  it('compiles its argument schemas and declares valid parameter headers', () => {
    const set = builtInHandlerSet(name);
    expect(() => createArgumentChecks(set)).not.toThrow();
    expect(() => toolParamHeaders(set)).not.toThrow();
  });
});

describe('the checks on the built-in sets', () => {
  it('refuse the demo access request without its fields', () => {
    const demo = createArgumentChecks(builtInHandlerSet('demo'));
    const refusal = demo.refusal({
      method: 'tools/call',
      target: 'request_access',
      params: { name: 'request_access', arguments: {} },
    });
    expect(textOf(refusal)).toContain('arguments.service: is required');
  });

  it('find the three header parameters the conformance set declares', () => {
    expect(toolParamHeaders(builtInHandlerSet('conformance')).get('test_custom_header_params')).toHaveLength(3);
  });
});
