/** The registry of handler sets, one of which a deployment serves (`HANDLER_SET`). */
import type { HandlerSet } from '../lib/handler-api';
import type { Config } from '../lib/config';
import { benchHandlers } from './bench';
import { conformanceHandlers } from './conformance';
import { demoHandlers } from './demo';

/** The handler sets a deployment can load with `HANDLER_SET`. */
export function loadHandlerSet(name: Config['handlerSet']): HandlerSet {
  switch (name) {
    case 'demo':
      return demoHandlers;
    case 'conformance':
      return conformanceHandlers;
    case 'bench':
      return benchHandlers;
  }
}
