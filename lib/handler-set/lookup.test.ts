// Pins the one unknown-target decision: requireHandler binds the handler a request names, or throws
// the catalog's unknownTarget error, the same for the API's check and the round activity's guard.
import type { OriginalRequest } from '../exchange/types';
import { unknownTarget } from '../protocol/error-catalog';
import { INVALID_PARAMS } from '../protocol/json-rpc-codes';
import { RpcError } from '../protocol/rpc-error';
import {
  defineResource,
  definePrompt,
  defineResourceTemplate,
  defineTool,
  type HandlerSet,
} from '@durable-mcp/handlers';
import { testContext } from '@durable-mcp/testing';
import { requireHandler } from './lookup';

const set: HandlerSet = {
  name: 'test',
  tools: [
    defineTool({
      tool: { name: 'echo', inputSchema: { type: 'object' } },
      run: (args) => ({ content: [{ type: 'text', text: String(args.text) }] }),
    }),
  ],
  prompts: [
    definePrompt({
      prompt: { name: 'hello' },
      run: (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `hello ${args.who}` } }] }),
    }),
  ],
  resources: [
    defineResource({
      resource: { uri: 'docs://index', name: 'index' },
      read: (uri) => ({ contents: [{ uri, text: 'index' }] }),
    }),
  ],
  resourceTemplates: [
    defineResourceTemplate({
      template: { uriTemplate: 'docs://{page}', name: 'page' },
      read: (uri, variables) => ({ contents: [{ uri, text: variables.page! }] }),
    }),
  ],
};

const refusal = (request: OriginalRequest) => {
  try {
    requireHandler(set, request);
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal');
};

describe('requireHandler', () => {
  it('binds a tool, a prompt, a static resource and a template to the request they serve', async () => {
    const ctx = testContext();
    const tool = requireHandler(set, {
      method: 'tools/call',
      target: 'echo',
      params: { name: 'echo', arguments: { text: 'hi' } },
    });
    expect(await tool(ctx)).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    const prompt = requireHandler(set, {
      method: 'prompts/get',
      target: 'hello',
      params: { name: 'hello', arguments: { who: 'Ada' } },
    });
    expect(await prompt(ctx)).toMatchObject({ messages: [{ content: { text: 'hello Ada' } }] });
    const index = requireHandler(set, { method: 'resources/read', target: 'docs://index', params: {} });
    expect(await index(ctx)).toEqual({ contents: [{ uri: 'docs://index', text: 'index' }] });
    const page = requireHandler(set, { method: 'resources/read', target: 'docs://intro', params: {} });
    expect(await page(ctx)).toEqual({ contents: [{ uri: 'docs://intro', text: 'intro' }] });
  });

  it.each([
    ['tools/call', 'nope', 'Unknown tool: nope', { path: 'params.name' }],
    ['prompts/get', 'echo', 'Unknown prompt: echo', { path: 'params.name' }],
    ['resources/read', 'other://x', 'Resource not found: other://x', { uri: 'other://x' }],
  ] as const)('refuses %s of %s with the catalog error', (method, target, message, data) => {
    const error = refusal({ method, target, params: {} });
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).toJson()).toEqual({ code: INVALID_PARAMS, message, data });
    expect((error as RpcError).toJson()).toEqual(unknownTarget(method, target).toJson());
  });

  it('echoes at most 128 characters of an unknown target', () => {
    const error = refusal({ method: 'tools/call', target: 'x'.repeat(500), params: {} }) as RpcError;
    expect(error.message).toBe(`Unknown tool: ${'x'.repeat(128)}…`);
  });
});
