/**
 * One process of the service, by role: `api` (the MCP endpoint), `worker` (the exchange rounds,
 * with the worker's metrics listener and the retention sweeper) or `all` (both in one process, as
 * `durable-mcp start` and `durable-mcp dev` run it). It runs until SIGINT or SIGTERM, or until the
 * worker's run ends by itself; the process mains and the CLI start the service through here.
 */
import type { Config } from '../../lib/config';
import type { Logger } from '../../lib/log';
import { installTemporalRuntime } from '../../lib/temporal/logging';
import { freeLoopbackPort, startWorkerMetricsListener } from '../../services/worker/src/metrics-listener';
import { startRetentionSweeper } from '../../services/worker/src/retention-sweeper';
import type { LoadedHandlers } from './handler-module';
import { startService, type RunningService, type WorkerRunOptions } from './start-service';
import { stopOnSignal } from './stop-on-signal';

export type ServiceRole = 'api' | 'worker' | 'all';

export interface ServiceProcessOptions {
  role: ServiceRole;
  config: Config;
  handlers: LoadedHandlers;
  log: Logger;
  /** For a process that embeds the worker (a test entry adding an interceptor, say). */
  worker?: WorkerRunOptions;
}

export async function runServiceProcess(options: ServiceProcessOptions): Promise<RunningService> {
  const { role, config, handlers, log } = options;
  const withWorker = role !== 'api';
  const label = role === 'api' ? 'API' : role === 'worker' ? 'worker' : 'service';
  // The SDK's exporter listens on loopback only: the worker's own listener serves what it exports.
  const sdkMetrics = withWorker && config.workerMetrics ? `127.0.0.1:${await freeLoopbackPort()}` : undefined;
  if (withWorker) installTemporalRuntime(log, { prometheusBindAddress: sdkMetrics });
  // Metrics are for watching the work, not a condition of it: a port already taken is logged, and
  // the worker runs without its listener rather than leave exchanges waiting for a worker.
  const metrics =
    withWorker && config.workerMetrics
      ? await startWorkerMetricsListener({
          ...config.workerMetrics,
          sdkMetricsUrl: `http://${sdkMetrics}/metrics`,
          ...(config.metricsToken !== undefined ? { token: config.metricsToken } : {}),
          log,
        }).catch((error: unknown) => {
          log.error(
            { err: error, ...config.workerMetrics },
            'worker metrics listener could not start (WORKER_METRICS_HOST/PORT); running without it',
          );
          return undefined;
        })
      : undefined;
  const service = await startService({
    config,
    handlers,
    log,
    api: role !== 'worker',
    worker: withWorker ? (options.worker ?? true) : false,
  });
  if (withWorker)
    log.info(
      {
        taskQueue: config.temporal.taskQueue,
        handlerSet: handlers.set.name,
        handlerVersion: handlers.version,
        handlers: config.handlers,
      },
      'worker started',
    );
  const sweeper = withWorker ? startRetentionSweeper(service.pool!, config.retention, log) : undefined;
  stopOnSignal({
    log,
    label,
    // The SDK's runtime also shuts the worker down on these signals; stopping waits for that.
    async stop() {
      sweeper?.stop();
      await service.stop();
      await metrics?.close();
      if (withWorker) log.info(`${label} stopped`);
    },
    ...(withWorker ? { ended: service.worker!.done } : {}),
  });
  return service;
}
