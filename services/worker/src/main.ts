/**
 * The worker process: runs migrations, connects to Temporal and Postgres, and polls the exchange
 * task queue (and sweeps expired records) until SIGINT/SIGTERM. Unless WORKER_METRICS_PORT is 0,
 * it serves its Prometheus metrics, the Temporal SDK's included, on WORKER_METRICS_HOST:PORT.
 */
import { installTemporalRuntime } from '../../../lib/temporal-logging';
import { loadConfigOrExit } from '../../../lib/config';
import { createLogger } from '../../../lib/log';
import { loadHandlersOrExit } from '../../stack/handler-module';
import { startService, type WorkerRunOptions } from '../../stack/start-service';
import { stopOnSignal } from '../../stack/stop-on-signal';
import { freeLoopbackPort, startWorkerMetricsListener } from './metrics-listener';
import { startRetentionSweeper } from './retention-sweeper';

/** `options` are for a process that embeds this main (a test entry adding an interceptor, say). */
export async function main(options: WorkerRunOptions = {}): Promise<void> {
  const config = loadConfigOrExit();
  // Before anything starts: a module that cannot be served stops the worker with its reason.
  const handlers = await loadHandlersOrExit(config.handlers);
  // Synchronous lines: a round's `round started` is out before its handler runs, whatever kills the process.
  const log = createLogger('worker', config.logLevel, { sync: true });
  // The SDK's exporter listens on loopback only: the worker's own listener serves what it exports.
  const sdkMetrics = config.workerMetrics ? `127.0.0.1:${await freeLoopbackPort()}` : undefined;
  installTemporalRuntime(log, { prometheusBindAddress: sdkMetrics });
  // Metrics are for watching the work, not a condition of it: a port already taken is logged, and
  // the worker runs without its listener rather than leave exchanges waiting for a worker.
  const metrics = config.workerMetrics
    ? await startWorkerMetricsListener({
        ...config.workerMetrics,
        sdkMetricsUrl: `http://${sdkMetrics}/metrics`,
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
    api: false,
    worker: options,
  });
  log.info(
    {
      taskQueue: config.temporal.taskQueue,
      handlerSet: handlers.set.name,
      handlerVersion: handlers.version,
      handlers: config.handlers,
    },
    'worker started',
  );
  const sweeper = startRetentionSweeper(service.pool!, config.retention, log);
  stopOnSignal({
    log,
    label: 'worker',
    // The SDK's runtime also shuts the worker down on these signals; stopping waits for that.
    async stop() {
      sweeper.stop();
      await service.stop();
      await metrics?.close();
      log.info('worker stopped');
    },
    ended: service.worker!.done,
  });
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`worker failed: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  });
}
