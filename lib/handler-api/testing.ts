/**
 * For unit tests of handlers, without the service: a handler context with silent logging and
 * notifications that go nowhere, with whatever the test needs overridden; a handler set of tools
 * that differ only by their input schema.
 */
import { ANONYMOUS_PRINCIPAL } from '../exchange/principal';
import { createLogger } from '../log';
import { defineTool, type HandlerContext, type HandlerSet } from './definitions';

const silent = createLogger('handler-test', 'silent');

export function testContext(overrides: Partial<HandlerContext> = {}): HandlerContext {
  return {
    exchangeId: 'test-exchange',
    round: 1,
    inputResponses: {},
    clientCapabilities: { elicitation: {}, sampling: {}, roots: {} },
    principal: ANONYMOUS_PRINCIPAL,
    log: silent,
    progress: async () => undefined,
    sendLog: async () => undefined,
    closeStream: async () => undefined,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** A handler set `test` of tools `t0`, `t1`, ... with these `inputSchema`s (each an object schema). */
export function setOfToolSchemas(...inputSchemas: Array<Record<string, unknown>>): HandlerSet {
  return {
    name: 'test',
    tools: inputSchemas.map((inputSchema, i) =>
      defineTool({
        tool: { name: `t${i}`, inputSchema: { type: 'object', ...inputSchema } },
        run: () => ({ content: [] }),
      }),
    ),
  };
}
