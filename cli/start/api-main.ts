/**
 * The API process: migrates Postgres, then serves MCP on `PORT` at /mcp until SIGINT/SIGTERM.
 */
import { loadConfigOrExit } from '../../lib/config';
import { createLogger } from '../../lib/log';
import { startFailure } from '../../lib/temporal/connection';
import { loadHandlersOrExit } from './handler-module';
import { runServiceProcess } from './service-process';

export async function main(): Promise<void> {
  const config = loadConfigOrExit('api');
  const log = createLogger('api', config.logLevel);
  const handlers = await loadHandlersOrExit(config.handlers);
  await runServiceProcess({ role: 'api', config, handlers, log });
}

if (require.main === module) {
  main().catch((error) => {
    process.stderr.write(`API failed: ${startFailure(error)}\n`);
    process.exit(1);
  });
}
