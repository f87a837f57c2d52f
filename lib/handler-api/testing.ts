/**
 * For unit tests of handlers, without the service: a handler context with silent logging and
 * notifications that go nowhere, with whatever the test needs overridden.
 */
import { ANONYMOUS_PRINCIPAL } from '../exchange/principal';
import { createLogger } from '../log';
import type { HandlerContext } from './definitions';

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
