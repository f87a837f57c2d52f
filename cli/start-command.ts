/**
 * `durable-mcp start [all|api|worker]`: the service in production, configured by the environment
 * variables of docs/configuration.md (HANDLERS names the module to serve). `all` (the
 * default) runs the API and the worker in one process; `api` and `worker` run one each, for a
 * deployment that scales them apart. When started by `durable-mcp dev`, it tells its parent once
 * the API listens.
 */
import { loadConfigOrExit } from '../lib/config';
import { createLogger } from '../lib/log';
import { loadHandlersOrExit } from './start/handler-module';
import { runServiceProcess, type ServiceRole } from './start/service-process';
import { allowTypeScriptModule } from './typescript-modules';

/** What `start` tells the `dev` process that spawned it. */
export interface StartedMessage {
  type: 'started';
  url?: string;
  handlerSet: string;
  handlerVersion: string;
}

export async function startCommand(role: ServiceRole): Promise<void> {
  const config = loadConfigOrExit(role);
  await allowTypeScriptModule(config.handlers);
  const handlers = await loadHandlersOrExit(config.handlers);
  // Synchronous lines when a worker runs here: a round's `round started` is out before its handler runs.
  const log = createLogger(role === 'all' ? 'durable-mcp' : role, config.logLevel, { sync: role !== 'api' });
  const service = await runServiceProcess({ role, config, handlers, log });
  const started: StartedMessage = {
    type: 'started',
    url: service.api?.url,
    handlerSet: handlers.set.name,
    handlerVersion: handlers.version,
  };
  process.send?.(started);
}
