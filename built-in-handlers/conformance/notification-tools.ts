/**
 * Tools that report while they run: three progress steps, and three log messages. The pauses let
 * the client see the notifications arrive one by one, before the result. Neither asks for input,
 * so each runs exactly once.
 */
import { defineTool } from '@durable-mcp/handlers';
import { NO_ARGUMENTS, sleep, text } from './fixtures';

export const toolWithProgress = defineTool({
  tool: {
    name: 'test_tool_with_progress',
    description: 'Reports progress 0, 50 and 100 of 100, then completes.',
    inputSchema: NO_ARGUMENTS,
  },
  async run(_args, ctx) {
    await ctx.progress(0, 100);
    await sleep(50);
    await ctx.progress(50, 100);
    await sleep(50);
    await ctx.progress(100, 100);
    return text('Progress test completed');
  },
});

export const toolWithLogging = defineTool({
  tool: {
    name: 'test_tool_with_logging',
    description: 'Sends three info log messages, then completes.',
    inputSchema: NO_ARGUMENTS,
  },
  async run(_args, ctx) {
    await ctx.sendLog('info', 'Tool execution started');
    await sleep(50);
    await ctx.sendLog('info', 'Tool processing data');
    await sleep(50);
    await ctx.sendLog('info', 'Tool execution completed');
    return text('Logging test completed');
  },
});

/** Closes the client's stream mid-call (SEP-1699): the client reconnects with Last-Event-ID and gets the result. */
export const testReconnection = defineTool({
  tool: {
    name: 'test_reconnection',
    description: 'A tool that triggers SSE stream closure to test client reconnection behavior',
    inputSchema: { type: 'object', properties: {} },
  },
  async run(_args, ctx) {
    await ctx.closeStream();
    await sleep(100);
    return text('Reconnection test completed');
  },
});
