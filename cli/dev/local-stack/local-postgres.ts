/**
 * A Postgres for development and tests when `DATABASE_URL` names none: the development stack's
 * embedded Postgres (real Postgres binaries shipped in an npm package), in a data folder of ours,
 * with the service's database created in it.
 */
import { Client } from 'pg';
import { loadDevStack } from '../dev-stack-package';
import { freePort } from './free-port';
import { checkPostgresUserAccess } from './postgres-user-access';

export interface LocalPostgres {
  url: string;
  stop(): Promise<void>;
}

export interface LocalPostgresOptions {
  dataDir: string;
  database: string;
  /** Keep the data folder after stopping (dev); tests throw theirs away. */
  persistent: boolean;
  /** Listen on this port (a restart on the same data folder keeps its URL); a free one when absent. */
  port?: number;
  /** Run it in a process group of its own (see `EmbeddedPostgresOptions.ownProcessGroup`). */
  ownProcessGroup?: boolean;
  onLog?: (line: string) => void;
}

export async function startLocalPostgres(options: LocalPostgresOptions): Promise<LocalPostgres> {
  const devStack = loadDevStack('A Postgres of its own (DATABASE_URL is not set)');
  checkPostgresUserAccess(devStack.embeddedPostgresBinary(), options.dataDir);
  const port = options.port ?? (await freePort());
  const password = 'durable-mcp-local';
  const cluster = await devStack.startEmbeddedPostgres({
    dataDir: options.dataDir,
    port,
    user: 'postgres',
    password,
    persistent: options.persistent,
    ...(options.ownProcessGroup ? { ownProcessGroup: true } : {}),
    onLog: options.onLog,
  });
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
    stop: () => cluster.stop(),
  };
}
