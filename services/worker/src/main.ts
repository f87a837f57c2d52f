/**
 * The worker process: runs migrations, connects to Temporal and Postgres, and polls the exchange
 * task queue (and sweeps expired records) until SIGINT/SIGTERM.
 */
import { installTemporalLogger } from '../../../lib/temporal-logging';
import { loadConfigOrExit } from '../../../lib/config';
import { createLogger } from '../../../lib/log';
import { loadHandlerSet } from '../../../handlers';
import { startService } from '../../stack/start-service';
import { stopOnSignal } from '../../stack/stop-on-signal';
import { startRetentionSweeper } from './retention-sweeper';

export async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger('worker', config.logLevel);
  installTemporalLogger(log);
  const service = await startService({ config, handlers: loadHandlerSet(config.handlerSet), log, api: false });
  log.info({ taskQueue: config.temporal.taskQueue, handlerSet: config.handlerSet }, 'worker started');
  const sweeper = startRetentionSweeper(service.pool!, config.retention, log);
  stopOnSignal({
    log,
    label: 'worker',
    // The SDK's runtime also shuts the worker down on these signals; stopping waits for that.
    async stop() {
      sweeper.stop();
      await service.stop();
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
