/**
 * The two servers under a fault stack, each a process a scenario can kill and start again on the
 * same state and port: a Temporal dev server on a SQLite file, and an embedded Postgres on a
 * persistent data folder (so every URL handed out stays valid across restarts).
 */
import path from 'node:path';
import {
  DEV_SERVER_DYNAMIC_CONFIG_FLAGS,
  DEV_SERVER_SQLITE_FLAGS,
  findTemporalCli,
  waitForTemporal,
} from '../../../cli/dev/local-stack/temporal-dev-server';
import { projectRoot } from '../../../lib/paths';
import { SEARCH_ATTRIBUTE_FLAGS } from '../../../lib/exchange/search-attributes';
import { readLog, spawnLogged, waitForLog, type OsProcess } from './os-process';

export interface TemporalProcessOptions {
  /** The gRPC port, and the HTTP and metrics ports (pinned, so a restart binds what the first start did). */
  ports: { grpc: number; http: number; metrics: number };
  sqliteFile: string;
  logFile: () => string;
  /** Extra `temporal server start-dev` arguments. */
  extraArgs?: string[];
}

/** Starts the dev server and waits until it serves; a port still closing after another run's use is tried again. */
export async function startTemporalProcess(options: TemporalProcessOptions): Promise<OsProcess> {
  const cli = findTemporalCli();
  if (!cli) throw new Error('the fault suite needs the temporal CLI (TEMPORAL_CLI_PATH or `temporal` on PATH)');
  const { grpc, http, metrics } = options.ports;
  const args = ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(grpc)];
  args.push('--http-port', String(http), '--metrics-port', String(metrics));
  // The same SQLite settings as `npm run dev`: a killed server loses nothing it committed.
  args.push('--db-filename', options.sqliteFile, ...DEV_SERVER_SQLITE_FLAGS);
  for (const flag of SEARCH_ATTRIBUTE_FLAGS) args.push('--search-attribute', flag);
  args.push(...DEV_SERVER_DYNAMIC_CONFIG_FLAGS, ...(options.extraArgs ?? []));
  // A port another test run grabbed a moment ago (its listener may still be closing) makes the
  // server exit at start; try again a few times before giving up.
  for (let attempt = 1; ; attempt++) {
    const proc = spawnLogged('temporal', cli, args, { logFile: options.logFile() });
    try {
      await waitForTemporal(`127.0.0.1:${grpc}`, 90_000, () => (proc.running() ? undefined : `see ${proc.logFile}`));
      return proc;
    } catch (error) {
      await proc.stop('SIGKILL');
      if (attempt >= 3) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
    }
  }
}

/** Starts (or starts again) the embedded Postgres on `dataDir`; its process and its database URL. */
export async function startPostgresProcess(
  dataDir: string,
  port: number,
  logFile: string,
): Promise<{ proc: OsProcess; databaseUrl: string }> {
  const root = projectRoot();
  const proc = spawnLogged(
    'postgres',
    process.execPath,
    ['--import', 'tsx', path.join(root, 'scripts/postgres-process.ts'), dataDir, String(port), 'mcp_faults', 'keep'],
    { cwd: root, logFile, signalLeaderOnly: true },
  );
  await waitForLog(proc, /postgres ready /, 120_000);
  return { proc, databaseUrl: /postgres ready (\S+)/.exec(readLog(proc.logFile))![1]! };
}
