/** Runs the bot from its environment (config.ts); SIGTERM or SIGINT stops it after the answers in flight. */
import { startApprovalBot } from './bot';
import { configFromEnv } from './config';

async function main() {
  const bot = await startApprovalBot(configFromEnv());
  const stop = () => void bot.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  console.error(`approval bot failed to start: ${(error as Error).message}`);
  process.exit(1);
});
