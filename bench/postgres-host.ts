/**
 * The bench's Postgres, as a process of its own (a child the bench starts in its own process
 * group, so a Ctrl-C reaches only the bench, which stops the service first and Postgres last):
 * `node --import tsx bench/postgres-host.ts <dataDir>` starts an embedded Postgres on a free port,
 * prints `postgres ready <url>`, and on SIGTERM shuts it down, deletes its data and exits.
 */
import { startLocalPostgres } from '../devtools/local-stack/local-postgres';

async function main(): Promise<void> {
  const [dataDir] = process.argv.slice(2);
  if (!dataDir) throw new Error('usage: postgres-host.ts <dataDir>');
  const pg = await startLocalPostgres({ dataDir, database: 'postgres', persistent: false });
  process.stdout.write(`postgres ready ${pg.url}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    pg.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`postgres host failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
