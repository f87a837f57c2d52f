/**
 * The worker process: connects to Temporal and Postgres, runs migrations, and polls the exchange
 * task queue until SIGINT/SIGTERM.
 */
import { NativeConnection } from '@temporalio/worker';
import { installTemporalLogger } from '../../../lib/temporal-logging';
import { loadConfigOrExit } from '../../../lib/config';
import { createPool } from '../../../lib/db/pool';
import { migrate } from '../../../lib/db/migrate';
import { createLogger } from '../../../lib/log';
import { loadHandlerSet } from '../../../handlers';
import { startRetentionSweeper } from './retention-sweeper';
import { createExchangeWorker } from './worker';

export async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger('worker', config.logLevel);
  installTemporalLogger(log);
  const pool = createPool(config.database.url, config.database.poolSize, log);
  await migrate(pool, log);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await createExchangeWorker({ config, pool, handlers: loadHandlerSet(config.handlerSet), log, connection });
  log.info({ taskQueue: config.temporal.taskQueue, handlerSet: config.handlerSet }, 'worker started');
  const sweeper = startRetentionSweeper(pool, config.retention, log);
  try {
    await worker.run(); // resolves after SIGINT/SIGTERM, which the SDK's Runtime handles
  } finally {
    sweeper.stop();
    await connection.close();
    await pool.end();
    log.info('worker stopped');
  }
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`worker failed: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  });
}
