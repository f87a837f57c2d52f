/**
 * `durable-mcp start [all|api|worker]`: the service in production, configured by the environment
 * variables of docs/configuration.md (HANDLERS names the module to serve). `all` (the
 * default) runs the API and the worker in one process; `api` and `worker` run one each, for a
 * deployment that scales them apart. When started by `durable-mcp dev`, it tells its parent once
 * the API listens (and on which port: the parent holds the public one and passes connections
 * through), and it stops as on SIGTERM when its parent is gone (the IPC channel closes): it runs in
 * a process group of its own, out of reach of the terminal's Ctrl-C, so that the parent stops it
 * in order.
 */
import type { AddressInfo } from 'node:net';
import { loadConfigOrExit } from '../lib/config';
import { createLogger } from '../lib/log';
import { loadHandlersOrExit } from './start/handler-module';
import { runServiceProcess, type ServiceRole } from './start/service-process';
import { allowTypeScriptModule } from './typescript-modules';

/** What `start` tells the `dev` process that spawned it. */
export interface StartedMessage {
  type: 'started';
  url?: string;
  /** The port the API listens on. */
  port?: number;
  handlerSet: string;
  handlerVersion: string;
}

export async function startCommand(role: ServiceRole): Promise<void> {
  const config = loadConfigOrExit(role);
  await allowTypeScriptModule(config.handlers);
  const handlers = await loadHandlersOrExit(config.handlers);
  // Synchronous lines when a worker runs here: a round's `round started` is out before its handler runs.
  const log = createLogger(role === 'all' ? 'durable-mcp' : role, config.logLevel, { sync: role !== 'api' });
  // Started by `durable-mcp dev`: a parent gone (however it ended) stops this process as SIGTERM does.
  if (process.send) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  const service = await runServiceProcess({ role, config, handlers, log });
  const address = service.api?.server.address() as AddressInfo | null | undefined;
  const started: StartedMessage = {
    type: 'started',
    url: service.api?.url,
    ...(address ? { port: address.port } : {}),
    handlerSet: handlers.set.name,
    handlerVersion: handlers.version,
  };
  if (process.send && process.connected) process.send(started);
}
