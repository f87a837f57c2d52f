/**
 * A local Temporal server for development and tests: the Temporal CLI's `server start-dev`
 * (SQLite, embedded Web UI), from `TEMPORAL_CLI_PATH` or the `temporal` on PATH. With neither, the
 * TypeScript SDK downloads the CLI (needs internet; never used in CI, which installs the wheel).
 * The search attributes the service uses are registered at start, and again once it answers: the CLI
 * registers its `--search-attribute` flags only when it creates the namespace, so a dev server on a
 * database file from an older version would lack the attributes added since.
 *
 * A server that keeps history in a file runs SQLite with a write-ahead log and `synchronous=NORMAL`
 * (`DEV_SERVER_SQLITE_PRAGMAS`): a commit appends to the log and no longer waits for an fsync, which
 * roughly halves a round's latency on this server. Nothing is lost when a process crashes or is
 * killed; a power loss or an OS crash can lose the last commits (see docs/development.md).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { SEARCH_ATTRIBUTE_FLAGS, SEARCH_ATTRIBUTES } from '../../../lib/exchange/search-attributes';
import { loadDevStack } from '../dev-stack-package';
import { devServerExit, TemporalDevServerExited } from './dev-server-exit';
import { freePort } from './free-port';

/**
 * `--sqlite-pragma` values for a dev server on a database file. The CLI accepts only `journal_mode`
 * and `synchronous`. WAL alone keeps every commit durable (it fsyncs the log at each commit);
 * `synchronous=NORMAL` fsyncs only at checkpoints, so the last commits before a power loss may be
 * rolled back, never those before a process crash.
 */
export const DEV_SERVER_SQLITE_PRAGMAS: readonly string[] = ['journal_mode=wal', 'synchronous=normal'];

/**
 * Dynamic config every local dev server runs with.
 *
 * - The search-attribute cache stays on. The CLI turns it off unless told otherwise, so that
 *   attributes registered while it runs are usable at once; but then every workflow start and every
 *   search-attribute upsert reads them from the database again (about a tenth of the server's CPU
 *   per exchange here). The service's attributes are registered at start (`--search-attribute`),
 *   before anything reads them. An attribute added by hand to a running server (`temporal operator
 *   search-attribute create`) is then seen after the cache's next refresh rather than at once.
 * - The transfer queue is read on each new task. By default the server reads it at most 20 times a
 *   second (per history shard; a dev server has one), so once tasks come faster than that (a few
 *   exchanges a second do) each new workflow task or activity task waits up to 50 ms in history
 *   before it is dispatched: 25-35 ms of a first leg, and of every round whose answer arrives after
 *   the workflow task before it completed.
 * - A worker version no longer current says `drained` within seconds of its last pinned exchange
 *   ending (WORKER_VERSIONING=pinned; docs/deploying.md "Rolling out a new version"), not minutes: the server
 *   checks a draining version every `VersionDrainageStatusRefreshInterval` and only after
 *   `VersionDrainageStatusVisibilityGracePeriod` since it stopped being current (3 minutes each by
 *   default, which a production server keeps). Worker Versioning itself needs no flag on this
 *   server (1.32 has the deployment APIs on). Values are JSON: a duration is a quoted string.
 * - Task queue fairness is on, as a deployment should have it (docs/operators.md "Fairness"): each
 *   exchange's tasks carry its caller's fairness key, and waiting tasks are handed out key by key,
 *   so one caller's backlog does not hold up another's rounds. The server has it off by default.
 */
export const DEV_SERVER_DYNAMIC_CONFIG_FLAGS: readonly string[] = [
  '--dynamic-config-value',
  'system.forceSearchAttributesCacheRefreshOnRead=false',
  '--dynamic-config-value',
  'history.transferProcessorMaxPollRPS=1000',
  '--dynamic-config-value',
  'matching.wv.VersionDrainageStatusRefreshInterval="2s"',
  '--dynamic-config-value',
  'matching.wv.VersionDrainageStatusVisibilityGracePeriod="2s"',
  '--dynamic-config-value',
  'matching.enableFairness=true',
];

/** The `start-dev` flags that apply `DEV_SERVER_SQLITE_PRAGMAS`. */
export const DEV_SERVER_SQLITE_FLAGS: readonly string[] = DEV_SERVER_SQLITE_PRAGMAS.flatMap((pragma) => [
  '--sqlite-pragma',
  pragma,
]);

export interface TemporalDevServer {
  address: string;
  uiUrl?: string;
  /** The server's process id (the bench reads its CPU time); absent when the SDK started it. */
  pid?: number;
  stop(): Promise<void>;
}

export interface TemporalDevServerOptions {
  /** The frontend's port; a free one, picked here, when absent or 0. */
  port?: number;
  /** Serve the Web UI on this port; no UI when absent. */
  uiPort?: number;
  /**
   * The codec endpoint the Web UI decodes payloads through (`--ui-codec-endpoint`): the API's
   * /codec as the browser reaches it.
   */
  uiCodecEndpoint?: string;
  /** SQLite file that keeps history across restarts; in memory when absent. */
  dbFile?: string;
  /** Where the server's own output goes. */
  logFile: string;
  /** More `start-dev` flags, after the ones set here (e.g. `--sqlite-pragma journal_mode=wal`). */
  extraArgs?: readonly string[];
  /** Start it in a process group of its own, so a terminal's Ctrl-C reaches only the caller, which stops it. */
  ownProcessGroup?: boolean;
}

export function findTemporalCli(): string | undefined {
  const explicit = process.env.TEMPORAL_CLI_PATH;
  if (explicit) return existsSync(explicit) ? explicit : undefined;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, 'temporal');
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Polls until the frontend answers health checks and the default namespace exists. */
export async function waitForTemporal(
  address: string,
  timeoutMs: number,
  exited?: () => string | Error | undefined,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const why = exited?.();
    if (why instanceof Error) throw why;
    if (why) throw new Error(`Temporal dev server exited: ${why}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1_000 });
      try {
        await connection.workflowService.describeNamespace({ namespace: 'default' });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`Temporal at ${address} not ready after ${timeoutMs} ms: ${(lastError as Error)?.message}`);
}

/**
 * Registers the service's search attributes that `address`'s `default` namespace lacks. One that
 * exists with another type is an error: the service cannot write it, so it says so at start.
 */
export async function registerSearchAttributes(address: string, namespace = 'default'): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    const missing: Record<string, number> = {};
    for (const key of SEARCH_ATTRIBUTES) {
      const wanted = temporal.api.enums.v1.IndexedValueType[`INDEXED_VALUE_TYPE_${key.type}`];
      const existing = customAttributes?.[key.name];
      if (existing === undefined || existing === null) missing[key.name] = wanted;
      else if (existing !== wanted)
        throw new Error(`search attribute ${key.name} exists on ${address} with another type than ${key.type}`);
    }
    if (Object.keys(missing).length > 0)
      await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: missing });
  } finally {
    await connection.close();
  }
}

/** How many times a start is tried when a port it did not fix was taken before the server bound it. */
const START_ATTEMPTS = 3;

/**
 * Starts a dev server. A port the caller fixed and another process holds ends the start with the
 * CLI's own line naming it; a port picked here (or by the CLI itself: its HTTP and metrics ports)
 * can be taken by another process between the pick and the bind, and the start is tried again.
 */
export async function startTemporalDevServer(options: TemporalDevServerOptions): Promise<TemporalDevServer> {
  const cli = findTemporalCli();
  for (let attempt = 1; ; attempt++) {
    const port = options.port || (await freePort());
    if (!cli) return startDownloadedServer(port, options);
    try {
      return await startCliServer(cli, port, options);
    } catch (error) {
      const taken = error instanceof TemporalDevServerExited ? error.portInUse : undefined;
      const fixed = taken === options.port || taken === options.uiPort;
      if (taken === undefined || fixed || attempt === START_ATTEMPTS) throw error;
    }
  }
}

async function startCliServer(
  cli: string,
  port: number,
  options: TemporalDevServerOptions,
): Promise<TemporalDevServer> {
  const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port)];
  if (options.uiPort) args.push('--ui-port', String(options.uiPort), '--ui-ip', '127.0.0.1');
  else args.push('--headless');
  if (options.uiPort && options.uiCodecEndpoint) args.push('--ui-codec-endpoint', options.uiCodecEndpoint);
  if (options.dbFile) {
    mkdirSync(path.dirname(options.dbFile), { recursive: true });
    args.push('--db-filename', options.dbFile, ...DEV_SERVER_SQLITE_FLAGS);
  }
  for (const flag of SEARCH_ATTRIBUTE_FLAGS) args.push('--search-attribute', flag);
  args.push(...DEV_SERVER_DYNAMIC_CONFIG_FLAGS, ...(options.extraArgs ?? []));

  mkdirSync(path.dirname(options.logFile), { recursive: true });
  // The log is appended to across starts: what this start wrote begins here.
  const logStart = existsSync(options.logFile) ? statSync(options.logFile).size : 0;
  const out = openSync(options.logFile, 'a');
  const child: ChildProcess = spawn(cli, args, { stdio: ['ignore', out, out], detached: options.ownProcessGroup });
  closeSync(out);
  // Out of the caller's process group, it would outlive a caller that crashed or was stopped while
  // it started (a Ctrl-C during a dev stack's start): it goes with it.
  const killOnExit = () => child.kill('SIGKILL');
  if (options.ownProcessGroup) process.once('exit', killOnExit);
  let started = false;
  let exit: TemporalDevServerExited | undefined;
  child.once('exit', (code, signal) => {
    if (started) return;
    const how = signal ? `signal ${signal}` : `code ${code}`;
    exit = devServerExit(how, logTail(options.logFile, logStart), options.logFile);
  });

  const address = `127.0.0.1:${port}`;
  try {
    await waitForTemporal(address, 60_000, () => exit);
    if (options.dbFile) await registerSearchAttributes(address);
  } catch (error) {
    process.off('exit', killOnExit);
    child.kill('SIGKILL');
    throw error;
  }
  started = true;
  return {
    address,
    uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : undefined,
    pid: child.pid,
    stop: () => {
      process.off('exit', killOnExit);
      return stopChild(child);
    },
  };
}

async function startDownloadedServer(port: number, options: TemporalDevServerOptions): Promise<TemporalDevServer> {
  const server = await loadDevStack('A Temporal dev server with no Temporal CLI installed').startDownloadedTemporal({
    port,
    uiPort: options.uiPort,
    dbFilename: options.dbFile,
    searchAttributes: SEARCH_ATTRIBUTES,
    extraArgs: [
      ...(options.dbFile ? DEV_SERVER_SQLITE_FLAGS : []),
      ...(options.uiPort && options.uiCodecEndpoint ? ['--ui-codec-endpoint', options.uiCodecEndpoint] : []),
      ...DEV_SERVER_DYNAMIC_CONFIG_FLAGS,
      ...(options.extraArgs ?? []),
    ],
  });
  if (options.dbFile) await registerSearchAttributes(server.address);
  return {
    address: server.address,
    uiUrl: options.uiPort ? `http://127.0.0.1:${options.uiPort}` : undefined,
    stop: () => server.stop(),
  };
}

/** What a start wrote to its log from `start`: its last 64 KiB, where a failed start says why. */
function logTail(logFile: string, start: number): string {
  const fd = openSync(logFile, 'r');
  try {
    const { size } = fstatSync(fd);
    const from = Math.max(start, size - 65_536);
    const buffer = Buffer.alloc(Math.max(0, size - from));
    readSync(fd, buffer, 0, buffer.length, from);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
