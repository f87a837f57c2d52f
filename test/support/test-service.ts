/**
 * One API and one worker, in this process, against the shared real Temporal and Postgres. Each
 * service gets its own task queue, so test files never steal each other's workflows.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Pool } from 'pg';
import { parseConfig, type Config } from '../../lib/config';
import { migrate } from '../../lib/db/migrate';
import { createPool } from '../../lib/db/pool';
import { createLogger } from '../../lib/log';
import { loadHandlerSet } from '../../handlers';
import type { HandlerSet } from '../../lib/handler-api';
import { startApi, type RunningApi } from '../../services/api/src/api';
import { createExchangeWorker } from '../../services/worker/src/worker';
import { installTemporalLogger } from '../../lib/temporal-logging';
import { readStackInfo } from './stack-info';

export interface TestService {
  config: Config;
  /** The task queue's Temporal client, for what an operator does in the Web UI (cancel, terminate, describe). */
  temporal: Client;
  url: string;
  pool: Pool;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

export const TEST_KEY_RING = `test1:${randomBytes(32).toString('base64')}`;

let runtimeInstalled = false;
/** The SDK's runtime is process-wide and installed once: route its lines into the test logger. */
function quietTemporalRuntime(log: ReturnType<typeof createLogger>): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  installTemporalLogger(log, 'WARN');
}

/** `handlers` replaces the configured set, for tests of what a misbehaving handler does to an exchange. */
export async function startTestService(env: Record<string, string> = {}, options: { handlers?: HandlerSet } = {}): Promise<TestService> {
  const stack = readStackInfo();
  const config = parseConfig({
    DATABASE_URL: stack.databaseUrl,
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    REQUEST_STATE_KEYS: TEST_KEY_RING,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    OUTCOME_POLL_MS: '500',
    ...env,
  });
  const log = createLogger('test', config.logLevel);
  quietTemporalRuntime(log);
  const pool = createPool(config.database.url, 4, log);
  await migrate(pool, log);
  const handlers = options.handlers ?? loadHandlerSet(config.handlerSet);
  const api: RunningApi = await startApi(config, handlers, log);

  let running: { worker: Worker; done: Promise<void>; connection: NativeConnection } | undefined;
  async function startWorker() {
    if (running) return;
    const connection = await NativeConnection.connect({ address: config.temporal.address });
    const worker = await createExchangeWorker({
      config,
      pool,
      handlers,
      log,
      connection,
      workflowBundle: { codePath: stack.workflowBundlePath },
    });
    running = { worker, connection, done: worker.run() };
  }
  async function stopWorker() {
    if (!running) return;
    const { worker, done, connection } = running;
    running = undefined;
    worker.shutdown();
    await done;
    await connection.close();
  }
  await startWorker();
  const temporalConnection = await Connection.connect({ address: config.temporal.address });
  const temporal = new Client({ connection: temporalConnection, namespace: config.temporal.namespace });

  return {
    config,
    temporal,
    url: api.url,
    pool,
    startWorker,
    stopWorker,
    async close() {
      await stopWorker();
      await temporalConnection.close();
      await api.close();
      await pool.end();
    },
  };
}
