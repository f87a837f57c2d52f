/**
 * The worker process: runs migrations, connects to Temporal and Postgres, and polls the exchange
 * task queue (and sweeps expired records) until SIGINT/SIGTERM. Unless WORKER_METRICS_PORT is 0,
 * it serves its Prometheus metrics, the Temporal SDK's included, on WORKER_METRICS_HOST:PORT.
 */
import { loadConfigOrExit } from '../../lib/config';
import { createLogger } from '../../lib/log';
import { startFailure } from '../../lib/temporal/connection';
import { loadHandlersOrExit } from './handler-module';
import { runServiceProcess } from './service-process';
import type { WorkerRunOptions } from './start-service';

/** `options` are for a process that embeds this main (a test entry adding an interceptor, say). */
export async function main(options: WorkerRunOptions = {}): Promise<void> {
  const config = loadConfigOrExit('worker');
  // Before anything starts: a module that cannot be served stops the worker with its reason.
  const handlers = await loadHandlersOrExit(config.handlers);
  // Synchronous lines: a round's `round started` is out before its handler runs, whatever kills the process.
  const log = createLogger('worker', config.logLevel, { sync: true });
  await runServiceProcess({ role: 'worker', config, handlers, log, worker: options });
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`worker failed: ${startFailure(error)}\n`);
    process.exit(1);
  });
}
