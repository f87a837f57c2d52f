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
import type { FaultStack, FaultStackOptions, WorkerStart } from './fault-stack-api';
import { freePort } from '../../../cli/dev/local-stack/free-port';
import { parseKeyRing } from '../../../lib/config';
import { FAILURE_CONVERTER_PATH, serviceDataConverter } from '../../../lib/payload-codec/data-converter';
import { projectRoot } from '../../../lib/paths';
import { startApiProcess, type ApiProcess } from '../../support/service-processes';
import { startPostgresProcess, startTemporalProcess } from './infrastructure-processes';
import { spawnLogged, tailOf, waitForLog, type OsProcess } from './os-process';

export type { FaultStack, FaultStackOptions, WorkerStart } from './fault-stack-api';

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
    temporal = await startTemporalProcess({
      ports: { grpc: temporalPort, http: httpPort, metrics: metricsPort },
      sqliteFile: path.join(scratch, 'temporal.sqlite'),
      logFile: () => nextLog('temporal'),
      ...(options.temporalArgs ? { extraArgs: options.temporalArgs } : {}),
    });
  }

  async function startPostgres() {
    ({ proc: pg, databaseUrl } = await startPostgresProcess(pgDir, pgPort, nextLog('postgres')));
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
