/**
 * The handler sets the service ships, by the name HANDLERS (or HANDLER_SET) gives them. They are
 * loaded and checked like a user's module (services/runtime/handler-module.ts); this is only the
 * table of names.
 */
import type { BuiltInHandlerSetName } from '../lib/config';
import type { HandlerSet } from '@durable-mcp/handlers';
import { benchHandlers } from './bench';
import { conformanceHandlers } from './conformance';
import { demoHandlers } from './demo';

export const builtInHandlerSets: Readonly<Record<BuiltInHandlerSetName, HandlerSet>> = {
  demo: demoHandlers,
  conformance: conformanceHandlers,
  bench: benchHandlers,
};
