/**
 * Starts scripts/postgres-process.ts as a child process and waits for its URL: an
 * embedded Postgres whose CPU and memory are its own (the bench measures them) and which stops
 * when its parent tells it to, in order.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../lib/paths';
import { spawnChild, type Child } from '../cli/dev/child-processes';
import { until } from '../cli/dev/readiness';

export interface PostgresChild {
  url: string;
  /** The postmaster's pid (its backends are its children), not the node process hosting it. */
  pid: number;
  process: Child;
  stop(): Promise<void>;
}

export async function startPostgresChild(options: {
  dataDir: string;
  database: string;
  /** Keep the data for the next start (a fixed port keeps the URL), or delete it on stop. */
  keep: boolean;
  port?: number;
  logFile: string;
}): Promise<PostgresChild> {
  const script = path.join(projectRoot(__dirname), 'scripts/postgres-process.ts');
  const args = [options.dataDir, String(options.port ?? 0), options.database, options.keep ? 'keep' : 'discard'];
  const child = spawnChild('postgres', process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: projectRoot(__dirname),
    env: process.env,
    logFile: options.logFile,
  });
  try {
    let url: string | undefined;
    await until(
      'waiting for the embedded Postgres',
      async () => {
        url = /^postgres ready (\S+)$/m.exec(readFileSync(options.logFile, 'utf8'))?.[1];
        return url !== undefined;
      },
      child.exited,
    );
    const pid = Number(readFileSync(path.join(options.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return { url: url!, pid, process: child, stop: () => child.stop() };
  } catch (error) {
    await child.stop();
    throw error;
  }
}
