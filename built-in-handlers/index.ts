/**
 * The handler sets the service ships, by the name HANDLERS (or HANDLER_SET) gives them. Each is
 * loaded when it is named, and only then: a process serving a user's module, or the demo, never
 * loads the conformance or bench sets. They pass the start-up check like a user's module
 * (cli/start/handler-module.ts).
 */
import type { BuiltInHandlerSetName } from '../lib/config';
import type { HandlerSet } from '@durable-mcp/handlers';

/* eslint-disable @typescript-eslint/no-require-imports -- a module loaded on demand, typed by its own declaration */
const loaders: Readonly<Record<BuiltInHandlerSetName, () => HandlerSet>> = {
  demo: () => (require('./demo') as typeof import('./demo')).demoHandlers,
  conformance: () => (require('./conformance') as typeof import('./conformance')).conformanceHandlers,
  bench: () => (require('./bench') as typeof import('./bench')).benchHandlers,
  // No tools of its own: the service serves its upstreams' (UPSTREAMS_FILE, UPSTREAM_URL) alone.
  none: () => ({ name: 'none', tools: [] }),
};
/* eslint-enable @typescript-eslint/no-require-imports */

export const isBuiltInHandlerSet = (name: string): name is BuiltInHandlerSetName => Object.hasOwn(loaders, name);

/** The built-in set `name`, loaded on first use. */
export const builtInHandlerSet = (name: BuiltInHandlerSetName): HandlerSet => loaders[name]();
