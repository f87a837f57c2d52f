/**
 * The API and the worker as OS processes of their own (their production mains under tsx), for
 * tests where "another replica", "a restart" or "a stop" must mean a real process: nothing shared
 * in memory, stopped by a real signal. Each is started through cli/dev/child-processes.ts and
 * resolves once it has said it serves.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { spawnChild, type Child, type ChildExit } from '../../cli/dev/child-processes';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { projectRoot } from '../../lib/paths';
import { readStackInfo } from './stack-info';
import { SEPARATE_IDENTICAL_CALLS, TEST_KEY_RINGS } from './test-service';

/**
 * What an API or worker process of a test needs to run on the shared test stack: its Postgres and
 * Temporal, a task queue of its own, the test key rings, and `extra` over them.
 */
export function stackProcessEnv(extra: Record<string, string> = {}): Record<string, string> & {
  TEMPORAL_TASK_QUEUE: string;
} {
  const stack = readStackInfo();
  return {
    DATABASE_URL: stack.databaseUrl,
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    ...TEST_KEY_RINGS,
    ...SEPARATE_IDENTICAL_CALLS,
    ...extra,
  };
}

export interface ServiceProcess {
  /** Its process id (the node process running the main), for readings from /proc. */
  readonly pid: number;
  /** Everything the process wrote to stdout and stderr so far (its log lines). */
  output(): string;
  /** Sends `signal` (SIGTERM) and waits for the exit; SIGKILL if it does not stop within `graceMs`. */
  kill(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
  /** Resolves once the process has exited, with its exit code or signal. */
  readonly exit: Promise<ChildExit>;
}

export interface ApiProcess extends ServiceProcess {
  url: string;
}

export interface WorkerProcess extends ServiceProcess {
  /** The worker's metrics URL, as it logged it. */
  metricsUrl: string;
}

/** One process (node with tsx's loader), not the tsx CLI, which would run the main in a child of its own. */
function startMain(name: string, main: string, env: Record<string, string>, logFile?: string): Child {
  const root = projectRoot();
  return spawnChild(name, process.execPath, ['--import', 'tsx', path.join(root, main)], {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    keepOutput: true,
    ...(logFile ? { logFile } : {}),
  });
}

/** Resolves with `ready`'s result once the child is ready; a child that is not is killed. */
async function whenReady<T>(child: Child, ready: () => Promise<T>): Promise<T> {
  try {
    return await ready();
  } catch (error) {
    await child.stop(0, 'SIGKILL');
    throw error;
  }
}

const handle = (child: Child): ServiceProcess => ({
  pid: child.pid,
  output: child.output,
  kill: (signal = 'SIGTERM', graceMs = 20_000) => child.stop(graceMs, signal),
  exit: child.exit,
});

/** `logFile`: where the process's stdout and stderr also go, for tests that show them on failure. */
export function startApiProcess(
  env: Record<string, string>,
  timeoutMs = 30_000,
  logFile?: string,
): Promise<ApiProcess> {
  // Identical calls apart, as in every test service, unless the test says otherwise.
  const child = startMain(
    'API process',
    'cli/start/api-main.ts',
    { PORT: '0', ...SEPARATE_IDENTICAL_CALLS, ...env },
    logFile,
  );
  return whenReady(child, async () => {
    const [, url] = await child.waitForOutput(/"url":"(http:\/\/[^"]+\/mcp)"[^\n]*"msg":"API listening"/, timeoutMs);
    return { ...handle(child), url: url! };
  });
}

/**
 * Resolves once the worker logged both its metrics URL and "worker started" (it polls from then
 * on). Its metrics listener is on a free port unless `env` names one.
 */
export async function startWorkerProcess(env: Record<string, string>, timeoutMs = 90_000): Promise<WorkerProcess> {
  const metricsPort = env.WORKER_METRICS_PORT ?? String(await freePort());
  const child = startMain('worker', 'cli/start/worker-main.ts', { WORKER_METRICS_PORT: metricsPort, ...env });
  return whenReady(child, async () => {
    const started = Date.now();
    const [, metricsUrl] = await child.waitForOutput(
      /"url":"(http:\/\/[^"]+\/metrics)"[^\n]*"msg":"worker metrics listening"/,
      timeoutMs,
    );
    await child.waitForOutput(/"msg":"worker started"/, timeoutMs - (Date.now() - started));
    return { ...handle(child), metricsUrl: metricsUrl! };
  });
}
