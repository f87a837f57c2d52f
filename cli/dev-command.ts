/**
 * `durable-mcp dev [module]`: the whole service on embedded defaults for a handler author, on their
 * module (TypeScript included): a Temporal dev server with its Web UI and an embedded Postgres, both
 * kept in the data folder (`.durable-mcp` in the working directory) so exchanges outlive this
 * command, and the service (API and worker) in a process of its own, restarted whenever a file the
 * module is made of changes (the module and the local files it imports; `--watch` adds paths). A restart is the restart the service is built to survive: exchanges
 * in flight wait in Temporal and go on with the new code. A module that does not load is reported
 * and the previous one stays stopped until the next change. Questions a handler addresses to
 * someone else are answered at the answer page, signed in through its development sign-in.
 *
 * The API's port is bound here first, for the command's whole life (dev/front-door): while the
 * service starts or restarts, a client's connection waits instead of being refused. It stops in
 * order: Temporal, Postgres and the service run in process groups of their own, so a terminal's
 * Ctrl-C reaches only this process, which stops the service (the API drains first: held legs
 * answer their state-only result, streams end with their last event id and a reconnect hint; then
 * the worker), then Postgres and Temporal, then lets the port go.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import {
  adminTokenFrom,
  answerPageFrom,
  apiOriginForBrowser,
  codecEndpointForBrowser,
  devServiceEnvironment,
} from './dev/dev-environment';
import { devBanner } from './dev/dev-banner';
import { chosenPorts, heldPortLine, portOf, portsLine, workerMetricsUrl } from './dev/dev-ports';
import { claimDevPorts } from './dev/dev-port-claim';
import { codecTrustsLoopback } from './dev/dev-codec-trust';
import type { FrontDoor } from './dev/front-door/front-door';
import { loadDevStack } from './dev/dev-stack-package';
import { TemporalDevServerExited } from './dev/local-stack/dev-server-exit';
import { startLocalStack, type LocalStack } from './dev/local-stack/local-stack';
import { createLogger } from '../lib/log';
import { commandFailure } from '../lib/start-error';
import { prepareDataFolder } from './dev-data-folder';
import { watchFiles, type FileWatch } from './file-watch';
import { moduleGraph } from './dev/module-graph';
import { recordDevStack } from './dev/dev-stack-record';
import { DEV_ADMIN_TOKEN_FILE } from './dev/dev-key-ring';
import type { StartedMessage } from './start-command';
import { isTypeScriptModule } from './typescript-modules';

export interface DevOptions {
  /** What HANDLERS names: a module's path or package name, or a built-in set (default: HANDLERS, else `demo`). */
  handlers?: string;
  /** Where the stack keeps its data (default `.durable-mcp` in the working directory). */
  dataDir?: string;
  /** Reload on changes (default true). */
  watch?: boolean;
  /** More files or folders to reload on (`--watch`), besides the files the module is made of. */
  watchPaths?: string[];
  /** An MCP server to stand in front of (UPSTREAM_URL); with no module named, the service serves its tools alone. */
  upstream?: string;
}

/** How long a stopping service may drain its legs and rounds before it is killed. */
const STOP_GRACE_MS = 20_000;
/** A signal this soon after the first is the same Ctrl-C relayed by a wrapper (npm, tsx), not a second one. */
const SAME_SIGNAL_MS = 1_000;
/** What the front door's 503s ask a client to wait while the service restarts. */
const RETRY_AFTER_S = 2;
/** A leg's own wait (HTTP_WAIT_MS's default): how long the front door holds a connection for the service. */
const DEFAULT_HOLD_MS = 25_000;

const isPath = (specifier: string) => specifier.startsWith('.') || path.isAbsolute(specifier);

export async function devCommand(options: DevOptions): Promise<void> {
  // Before anything is written: without the development stack, say what to install.
  loadDevStack('durable-mcp dev');
  const cwd = process.cwd();
  const specifier = options.handlers ?? process.env.HANDLERS ?? (options.upstream ? 'none' : 'demo');
  const handlers = isPath(specifier) ? path.resolve(cwd, specifier) : specifier;
  const dataDir = path.resolve(cwd, options.dataDir ?? '.durable-mcp');
  prepareDataFolder(dataDir);
  const log = createLogger('dev', process.env.LOG_LEVEL ?? 'info');

  let local: LocalStack | undefined;
  let child: ChildProcess | undefined;
  // Set once the ports are claimed; the stops before then have none to close.
  let frontDoor: FrontDoor | undefined = undefined;
  let watcher: FileWatch | undefined;
  let stopping: number | undefined;
  let forgetRecord: (() => void) | undefined;

  const stopChild = async () => {
    frontDoor?.hold();
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    const killer = setTimeout(() => killGroup(running), STOP_GRACE_MS);
    await exited;
    clearTimeout(killer);
  };
  const stopAll = async (code: number) => {
    if (stopping !== undefined) {
      if (Date.now() - stopping > SAME_SIGNAL_MS) process.exit(1); // a second Ctrl-C forces the exit
      return;
    }
    stopping = Date.now();
    forgetRecord?.();
    watcher?.close();
    if (child) log.info('stopping: the service drains, then Postgres and Temporal stop');
    await stopChild();
    await local?.stop().catch((error: unknown) => log.warn({ err: error }, 'local stack did not stop cleanly'));
    await frontDoor?.close();
    if (local) log.info('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  // However this process ends, the service it started goes with it (its own group: Ctrl-C misses it).
  process.on('exit', () => {
    if (child) killGroup(child);
    forgetRecord?.();
  });

  const host = process.env.HOST || '127.0.0.1';
  // Every port this opens, checked before anything starts: one line for each that is not free.
  const claim = await claimDevPorts(process.env, host, { holdMs: DEFAULT_HOLD_MS, retryAfterS: RETRY_AFTER_S, log });
  if ('problems' in claim) return failWith(claim.problems, stopAll);
  const { ports } = claim;
  frontDoor = claim.frontDoor;
  // The port bound (one picked when PORT=0) is the one every link and the answer page's origin name.
  const publicEnv: NodeJS.ProcessEnv = { ...process.env, PORT: String(frontDoor!.port) };
  const publicUrl = `${apiOriginForBrowser(publicEnv)!}/mcp`;

  try {
    local = await startLocalStack({
      dataDir,
      database: 'mcp',
      persistent: true,
      temporalPort: portOf(ports, 'TEMPORAL_DEV_PORT'),
      temporalUiPort: portOf(ports, 'TEMPORAL_DEV_UI_PORT'),
      temporalUiCodecEndpoint: codecEndpointForBrowser(publicEnv),
      postgresPort: portOf(ports, 'POSTGRES_DEV_PORT'),
      waitForExternalTemporal: false,
      ownProcessGroups: true,
      onStart: (server) =>
        log.info(`starting ${server === 'postgres' ? 'an embedded Postgres' : 'a Temporal dev server'} in ${dataDir}`),
    });
  } catch (error) {
    // One line a user can act on (a folder Postgres cannot enter, a port in use), never a stack trace.
    // A port taken since the check above: the same line as then.
    const taken = ports.find(
      (port) => port.port > 0 && error instanceof TemporalDevServerExited && port.port === error.portInUse,
    );
    if (taken) return failWith([heldPortLine(taken)], stopAll);
    return failWith([`the local stack did not start: ${commandFailure(error)}`], stopAll);
  }
  const chosen = chosenPorts(ports, frontDoor!.port, local);
  log.info(`ports: ${portsLine(chosen)}`);
  // The service listens on a port of its own, on the same address; the front door passes connections through.
  const env: NodeJS.ProcessEnv = {
    ...devServiceEnvironment(dataDir, local, log, publicEnv),
    HANDLERS: handlers,
    PORT: '0',
    ...(options.upstream ? { UPSTREAM_URL: options.upstream } : {}),
  };
  const extraWatched = (options.watchPaths ?? []).map((watched) => path.resolve(cwd, watched));
  // What a reload follows: the module's own files (its module graph) and the --watch paths.
  const watching = options.watch !== false && (isPath(handlers) || extraWatched.length > 0);
  const watchedSummary = [
    ...(isPath(handlers) ? [`${path.relative(cwd, handlers) || handlers} and the local files it imports`] : []),
    ...extraWatched.map((watched) => path.relative(cwd, watched) || watched),
  ].join(', ');
  let shownBanner = false;

  const startChild = () => {
    // The same CLI, run the way this process runs (under tsx from source, or compiled), as `start`.
    // In a process group of its own: a terminal's Ctrl-C reaches this process, which stops it in order.
    const started = spawn(process.execPath, [...process.execArgv, process.argv[1]!, 'start', 'all'], {
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: true,
    });
    child = started;
    started.on('message', (message: StartedMessage) => {
      if (message?.type !== 'started' || !message.url || !message.port) return;
      if (child !== started || stopping !== undefined) return;
      frontDoor!.serve({ host: connectHost(host), port: message.port });
      if (shownBanner) {
        log.info(
          { handlerSet: message.handlerSet, handlerVersion: message.handlerVersion },
          'reloaded: serving the changed handlers',
        );
        return;
      }
      shownBanner = true;
      // Where `durable-mcp exchanges` and `evidence` find this stack, from this folder or any other.
      forgetRecord = recordDevStack({
        pid: process.pid,
        url: publicUrl.replace(/\/mcp$/, ''),
        dataDir,
        cwd,
        ...(process.env.ADMIN_TOKEN ? {} : { tokenFile: path.join(dataDir, DEV_ADMIN_TOKEN_FILE) }),
      });
      process.stdout.write(
        devBanner({
          url: publicUrl,
          handlerSet: message.handlerSet,
          handlerVersion: message.handlerVersion,
          answerPage: answerPageFrom(env),
          adminTokenFrom: adminTokenFrom(dataDir),
          workerMetrics: workerMetricsUrl(chosen),
          temporalAddress: local!.temporalAddress,
          temporalUiUrl: local!.temporalUiUrl,
          codecTrustsLoopback: codecTrustsLoopback(env),
          notes: [
            `Ports: ${portsLine(chosen)}.`,
            ...(watching ? [`Reloads when ${watchedSummary} change (--watch <path> adds more).`] : []),
          ],
        }),
      );
    });
    started.on('exit', (code, signal) => {
      if (child !== started || stopping !== undefined) return;
      child = undefined;
      frontDoor!.hold();
      log.error(
        { code, signal },
        watching
          ? 'the service stopped; fix the handlers and save: it starts again on the next change'
          : 'the service stopped',
      );
      if (!watching) void stopAll(1);
    });
  };

  if (watching) {
    let reloading: Promise<void> = Promise.resolve();
    const fileWatch = watchFiles({
      moduleFiles: () => (isPath(handlers) ? moduleGraph(handlers) : []),
      extra: extraWatched,
      ignore: [dataDir],
      onChange: (file) => {
        reloading = reloading.then(async () => {
          if (stopping !== undefined) return;
          log.info({ file: path.relative(cwd, file) }, 'changed: restarting the service (exchanges in flight go on)');
          await stopChild();
          // The module may import other files now: watch what it is made of after this change.
          fileWatch.refresh();
          if (stopping === undefined) startChild();
        });
      },
    });
    watcher = fileWatch;
  }
  if (isTypeScriptModule(handlers)) log.info({ handlers }, 'serving a TypeScript module through tsx');
  startChild();
}

/** Writes each line as `durable-mcp dev: <line>` and stops with exit code 1. */
function failWith(lines: string[], stopAll: (code: number) => Promise<void>): Promise<void> {
  for (const line of lines) process.stderr.write(`durable-mcp dev: ${line}\n`);
  return stopAll(1);
}

/** SIGKILL to a child's whole group (it and whatever it started), when it is still there. */
function killGroup(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/** Where this process reaches the service listening on `host` (a wildcard: on loopback). */
function connectHost(host: string): string {
  if (!WILDCARD_HOSTS.has(host)) return host.replace(/^\[|\]$/g, '');
  return host === '0.0.0.0' ? '127.0.0.1' : '::1';
}
