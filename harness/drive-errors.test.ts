// What a handler's throw ends its call with, under the service's rules: a ProtocolError, ours or
// the official SDK's, is the call's JSON-RPC error; anything else thrown by a tool is a tool error.
import { defineTool, ProtocolError } from '@durable-mcp/handlers';
import { ProtocolError as SdkProtocolError } from '@modelcontextprotocol/server';
import { driveTool } from './drive';

const throwing = (error: unknown) =>
  defineTool({
    tool: { name: 'lookup', inputSchema: { type: 'object' } },
    run: () => {
      throw error;
    },
  });

describe('a handler that throws', () => {
  it.each([
    ['our ProtocolError', new ProtocolError(-32602, 'no such order', { order: 'A-1' })],
    ["the SDK's ProtocolError", new SdkProtocolError(-32602, 'no such order', { order: 'A-1' })],
  ])('ends the call with %s as its JSON-RPC error', async (_label, error) => {
    const step = await driveTool(throwing(error), 'lookup', {});
    expect(step.error).toEqual({ code: -32602, message: 'no such order', data: { order: 'A-1' } });
  });

  it('ends a tool call with a tool error for anything else', async () => {
    const step = await driveTool(throwing(new Error('the warehouse is closed')), 'lookup', {});
    expect(step.result).toEqual({ content: [{ type: 'text', text: 'the warehouse is closed' }], isError: true });
  });
});
