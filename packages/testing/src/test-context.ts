/**
 * For unit tests of handlers: a handler context as the service would give round 1, with silent
 * logging and notifications that go nowhere, and whatever the test needs overridden. To drive a
 * handler round by round under the service's rules, use `driveTool`.
 */
import type { HandlerContext, HandlerLogger, Principal } from '@durable-mcp/handlers';

const ignore = () => undefined;
const silent: HandlerLogger = {
  trace: ignore,
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
  fatal: ignore,
};

/** The principal of a service that authenticates nobody (AUTH_MODE=off). */
export const ANONYMOUS: Principal = Object.freeze({ id: 'anonymous', subject: 'anonymous', scopes: [] }) as Principal;

export function testContext(overrides: Partial<HandlerContext> = {}): HandlerContext {
  return {
    exchangeId: 'test-exchange',
    round: 1,
    inputResponses: {},
    clientCapabilities: { elicitation: {}, sampling: {}, roots: {} },
    principal: ANONYMOUS,
    log: silent,
    progress: async () => undefined,
    sendLog: async () => undefined,
    closeStream: async () => undefined,
    signal: new AbortController().signal,
    ...overrides,
  };
}
