/**
 * The API process: migrates Postgres, then serves MCP on `PORT` at /mcp until SIGINT/SIGTERM.
 */
import { loadHandlerSet } from '../../../handlers';
import { loadConfigOrExit } from '../../../lib/config';
import { migrate } from '../../../lib/db/migrate';
import { createPool } from '../../../lib/db/pool';
import { createLogger } from '../../../lib/log';
import { startApi } from './api';

export async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger('api', config.logLevel);
  const pool = createPool(config.database.url, 1, log);
  await migrate(pool, log);
  await pool.end();
  const api = await startApi(config, loadHandlerSet(config.handlerSet), log);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1); // a second signal forces the exit
    stopping = true;
    log.info({ signal }, 'API stopping');
    api.close().then(
      () => process.exit(0),
      (error) => {
        log.error({ err: error }, 'API did not stop cleanly');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`API failed: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  });
}
