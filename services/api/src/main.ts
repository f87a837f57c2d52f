/**
 * The API process: migrates Postgres, then serves MCP on `PORT` at /mcp until SIGINT/SIGTERM.
 */
import { loadConfigOrExit } from '../../../lib/config';
import { createLogger } from '../../../lib/log';
import { loadHandlersOrExit } from '../../stack/handler-module';
import { startService } from '../../stack/start-service';
import { stopOnSignal } from '../../stack/stop-on-signal';

export async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger('api', config.logLevel);
  const handlers = await loadHandlersOrExit(config.handlers);
  const service = await startService({ config, handlers, log, worker: false });
  stopOnSignal({ log, label: 'API', stop: service.stop });
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`API failed: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  });
}
