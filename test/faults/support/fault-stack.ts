/**
 * The whole service as separate OS processes, each of which a scenario can kill and start again:
 * a Temporal dev server on a SQLite file (restarted on the same file and port), an embedded
 * Postgres on a persistent data folder (restarted on the same folder and port, so every URL
 * stays valid), one worker and two API processes. Every process writes to its own log file in a
 * scratch folder; `tails()` is what a failing scenario prints.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { Client as PgClient } from 'pg';
import { freePort } from '../../../cli/dev/local-stack/free-port';
import {
  DEV_SERVER_DYNAMIC_CONFIG_FLAGS,
  DEV_SERVER_SQLITE_FLAGS,
  findTemporalCli,
  waitForTemporal,
} from '../../../cli/dev/local-stack/temporal-dev-server';
import { parseKeyRing } from '../../../lib/config';
import { FAILURE_CONVERTER_PATH, serviceDataConverter } from '../../../lib/payload-codec/data-converter';
import { projectRoot } from '../../../lib/paths';
import { SEARCH_ATTRIBUTE_FLAGS } from '../../../lib/exchange/search-attributes';
import { startApiProcess, type ApiProcess } from '../../support/service-processes';
import { readLog, spawnLogged, tailOf, waitForLog, type OsProcess } from './os-process';

export interface FaultStackOptions {
  /** Extra environment for the API processes (ROUND_TIMEOUT_MS, say). */
  apiEnv?: Record<string, string>;
  /** Extra environment for the API and worker processes alike (UPSTREAM_URL, say), read when each starts. */
  serviceEnv?: Record<string, string>;
  /** How long a leg waits for an outcome before a state-only result: short, so clients poll. */
  httpWaitMs?: number;
  /**
   * Bundle the workflows once, in the test process, and start every worker of the stack on that
   * bundle (through the fault worker entry), so scenarios that restart workers often save the
   * bundling at each start.
   */
  sharedWorkflowBundle?: boolean;
  /** Extra `temporal server start-dev` arguments (`--dynamic-config-value limit.blobSize.error=...`, say). */
  temporalArgs?: string[];
}

export interface WorkerStart {
  /** A pause spec (support/fault-pause.ts): the worker holds the first matching activity open. */
  pause?: string;
  /** A workflow bundle of its own (`buildWorkflowBundle`): the worker runs this code instead of the stack's. */
  workflowBundle?: string;
}

export interface FaultStack {
  scratch: string;
  keyRing: string;
  temporalAddress: string;
  /** The URLs of the API processes that are up, in slot order (slot 0 and slot 1). */
  apiUrls(): string[];
  apiUrl(slot: 0 | 1): string;
  apiRunning(slot: 0 | 1): boolean;
  /** The process id of the API process in `slot`, while it runs. */
  apiPid(slot: 0 | 1): number | undefined;
  /** The log file of the API process in `slot` (its latest start). */
  apiLogFile(slot: 0 | 1): string;
  /** Starts the API in `slot`; `env` overrides the stack's environment for this start only. */
  startApi(slot: 0 | 1, env?: Record<string, string>): Promise<void>;
  stopApi(slot: 0 | 1, signal: NodeJS.Signals): Promise<void>;
  /** Starts the worker: the service's own main, or with `pause` the fault worker holding a window. */
  startWorker(start?: WorkerStart): Promise<OsProcess>;
  /**
   * Bundles the workflows of `workflowsPath` (a module exporting workflow functions) into the
   * scratch folder as `name`, for `startWorker({ workflowBundle })`; returns its path.
   */
  buildWorkflowBundle(workflowsPath: string, name: string): Promise<string>;
  /** The Temporal dev server process (its latest start). */
  temporal(): OsProcess | undefined;
  /** The embedded Postgres's process (its node wrapper; the server and backends are its children). */
  postgres(): OsProcess | undefined;
  /** The running worker, if any. */
  worker(): OsProcess | undefined;
  stopWorker(signal: NodeJS.Signals): Promise<string | undefined>;
  /** Every worker log file so far, oldest first. */
  workerLogs(): string[];
  killTemporal(): Promise<void>;
  startTemporal(): Promise<void>;
  stopPostgres(): Promise<void>;
  startPostgres(): Promise<void>;
  /** One query on a fresh connection (the pool a test would hold dies with each Postgres restart). */
  query<R extends Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  /** A Temporal client on a fresh connection, closed after `use`. */
  withTemporal<T>(use: (client: TemporalClient) => Promise<T>): Promise<T>;
  /** The last lines of every process's log, for a failing scenario's message. */
  tails(lines?: number): string;
  /** Stops everything; keeps the scratch folder (and says where) when `keepScratch`. */
  close(keepScratch: boolean): Promise<void>;
}

const root = projectRoot();

export async function startFaultStack(options: FaultStackOptions = {}): Promise<FaultStack> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-faults-'));
  chmodSync(scratch, 0o755); // as root, the embedded Postgres runs as a `postgres` user that must reach its folder
  const logs = path.join(scratch, 'logs');
  mkdirSync(logs);
  const keyRing = `k1:${randomBytes(32).toString('base64')}`;
  const codecKeyRing = `c1:${randomBytes(32).toString('base64')}`;
  const evidenceKeyRing = `e1:${randomBytes(32).toString('base64')}`;
  const taskQueue = `faults-${randomUUID()}`;
  const temporalPort = await freePort();
  const temporalAddress = `127.0.0.1:${temporalPort}`;
  const pgPort = await freePort();
  const pgDir = path.join(scratch, 'postgres');
  let pg: OsProcess | undefined;
  let databaseUrl = '';
  let temporal: OsProcess | undefined;
  let worker: OsProcess | undefined;
  const workerLogs: string[] = [];
  const apis: Array<ApiProcess | undefined> = [undefined, undefined];
  const apiLogs: string[] = ['', ''];
  let starts = 0;
  const nextLog = (name: string) => path.join(logs, `${String(++starts).padStart(2, '0')}-${name}.log`);

  const serviceEnv = () => ({
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    REQUEST_STATE_KEYS: keyRing,
    PAYLOAD_CODEC_KEYS: codecKeyRing,
    EVIDENCE_SIGNING_KEYS: evidenceKeyRing,
    HANDLER_SET: 'demo',
    LOG_LEVEL: 'info',
    // Each scenario's calls are its own exchanges, whatever an earlier one left waiting (test/README.md).
    REATTACH_IDENTICAL_CALLS_MS: '0',
    ...options.serviceEnv,
  });

  // The HTTP API and metrics ports are pinned too, so a restart binds what the first start did.
  const [httpPort, metricsPort] = [await freePort(), await freePort()];
  async function startTemporal() {
    const cli = findTemporalCli();
    if (!cli) throw new Error('the fault suite needs the temporal CLI (TEMPORAL_CLI_PATH or `temporal` on PATH)');
    const args = ['server', 'start-dev', '--headless', '--ip', '127.0.0.1', '--port', String(temporalPort)];
    args.push('--http-port', String(httpPort), '--metrics-port', String(metricsPort));
    // The same SQLite settings as `npm run dev`: a killed server loses nothing it committed.
    args.push('--db-filename', path.join(scratch, 'temporal.sqlite'), ...DEV_SERVER_SQLITE_FLAGS);
    for (const flag of SEARCH_ATTRIBUTE_FLAGS) args.push('--search-attribute', flag);
    args.push(...DEV_SERVER_DYNAMIC_CONFIG_FLAGS, ...(options.temporalArgs ?? []));
    // A port another test run grabbed a moment ago (its listener may still be closing) makes the
    // server exit at start; try again a few times before giving up.
    for (let attempt = 1; ; attempt++) {
      const proc = spawnLogged('temporal', cli, args, { logFile: nextLog('temporal') });
      temporal = proc;
      try {
        await waitForTemporal(temporalAddress, 90_000, () => (proc.running() ? undefined : `see ${proc.logFile}`));
        return;
      } catch (error) {
        await proc.stop('SIGKILL');
        if (attempt >= 3) throw error;
        await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
      }
    }
  }

  async function startPostgres() {
    const proc = spawnLogged(
      'postgres',
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts/postgres-process.ts'), pgDir, String(pgPort), 'mcp_faults', 'keep'],
      {
        cwd: root,
        logFile: nextLog('postgres'),
        signalLeaderOnly: true,
      },
    );
    pg = proc;
    await waitForLog(proc, /postgres ready /, 120_000);
    databaseUrl = /postgres ready (\S+)/.exec(readLog(proc.logFile))![1]!;
  }

  let workflowBundle: string | undefined;
  async function buildWorkflowBundle(workflowsPath: string, name: string) {
    const { code } = await bundleWorkflowCode({
      workflowsPath,
      failureConverterPath: FAILURE_CONVERTER_PATH, // as the worker bundles them itself
      logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
    });
    const file = path.join(scratch, name);
    writeFileSync(file, code);
    return file;
  }

  async function startWorker(start: WorkerStart = {}) {
    if (worker?.running()) throw new Error('a worker is already running');
    const logFile = nextLog(start.pause ? 'worker-paused' : 'worker');
    workerLogs.push(logFile);
    const bundle = start.workflowBundle ?? workflowBundle;
    const entry = start.pause || bundle ? 'test/faults/support/fault-worker.ts' : 'cli/start/worker-main.ts';
    const proc = spawnLogged('worker', process.execPath, ['--import', 'tsx', path.join(root, entry)], {
      cwd: root,
      env: {
        ...process.env,
        ...serviceEnv(),
        ...(start.pause ? { FAULT_PAUSE: start.pause } : {}),
        ...(bundle ? { FAULT_WORKFLOW_BUNDLE: bundle } : {}),
      },
      logFile,
    });
    worker = proc;
    // It bundles the workflows before it polls: allow for a busy 2-core machine.
    await waitForLog(proc, /"msg":"worker started"/, 120_000);
    return proc;
  }

  async function startApi(slot: 0 | 1, env: Record<string, string> = {}) {
    if (apis[slot]) throw new Error(`API ${slot} is already running`);
    apiLogs[slot] = nextLog(`api${slot}`);
    apis[slot] = await startApiProcess(
      {
        ...serviceEnv(),
        HTTP_WAIT_MS: String(options.httpWaitMs ?? 2000),
        OUTCOME_POLL_MS: '500',
        ...options.apiEnv,
        ...env,
      },
      90_000,
      apiLogs[slot],
    );
  }

  const stack: FaultStack = {
    scratch,
    keyRing,
    temporalAddress,
    apiUrls: () => apis.filter((api): api is ApiProcess => api !== undefined).map((api) => api.url),
    apiRunning: (slot) => apis[slot] !== undefined,
    apiPid: (slot) => apis[slot]?.pid,
    apiUrl(slot) {
      const api = apis[slot];
      if (!api) throw new Error(`API ${slot} is not running`);
      return api.url;
    },
    apiLogFile: (slot) => apiLogs[slot]!,
    startApi,
    async stopApi(slot, signal) {
      const api = apis[slot];
      apis[slot] = undefined;
      await api?.kill(signal);
    },
    startWorker,
    buildWorkflowBundle,
    worker: () => (worker?.running() ? worker : undefined),
    temporal: () => temporal,
    postgres: () => pg,
    async stopWorker(signal) {
      const proc = worker;
      worker = undefined;
      return proc?.stop(signal);
    },
    workerLogs: () => [...workerLogs],
    async killTemporal() {
      await temporal?.stop('SIGKILL');
    },
    startTemporal,
    async stopPostgres() {
      await pg?.stop('SIGTERM');
      pg = undefined;
    },
    startPostgres,
    async query(sql, params) {
      const client = new PgClient({ connectionString: databaseUrl });
      client.on('error', () => undefined);
      await client.connect();
      try {
        return (await client.query(sql, params)).rows;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async withTemporal(use) {
      const connection = await Connection.connect({ address: temporalAddress });
      try {
        const dataConverter = serviceDataConverter({
          keys: parseKeyRing('PAYLOAD_CODEC_KEYS', codecKeyRing),
          acceptPlaintext: false,
          // The client's namespace (the default one): what a payload it reads without a context is checked against.
          namespace: 'default',
        });
        return await use(new TemporalClient({ connection, dataConverter }));
      } finally {
        await connection.close();
      }
    },
    tails(lines = 30) {
      return readdirSync(logs)
        .sort()
        .map((file) => `----- ${file} (last ${lines} lines) -----\n${tailOf(path.join(logs, file), lines)}`)
        .join('\n');
    },
    async close(keepScratch) {
      await Promise.all([stack.stopApi(0, 'SIGTERM'), stack.stopApi(1, 'SIGTERM')]);
      await stack.stopWorker('SIGTERM');
      await temporal?.stop('SIGKILL');
      await stack.stopPostgres().catch(() => undefined);
      if (keepScratch) process.stderr.write(`fault suite: logs kept in ${logs}\n`);
      else rmSync(scratch, { recursive: true, force: true });
    },
  };

  try {
    await Promise.all([
      startTemporal(),
      startPostgres(),
      options.sharedWorkflowBundle
        ? buildWorkflowBundle(require.resolve('../../../workflows'), 'workflow-bundle.js').then((file) => {
            workflowBundle = file;
          })
        : undefined,
    ]);
    await startWorker();
    // One API first: both migrate at start, and two racing first migrations would only test the migrator.
    await startApi(0);
    await startApi(1);
  } catch (error) {
    (error as Error).message += `\n${stack.tails()}`;
    await stack.close(true);
    throw error;
  }
  return stack;
}
