/**
 * One API and one worker, in this process, against the shared real Temporal and Postgres. Each
 * service gets its own task queue, so test files never steal each other's workflows.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import type { Pool } from 'pg';
import { parseConfig, type Config } from '../../lib/config';
import { serviceDataConverter } from '../../lib/payload-codec/data-converter';
import { connectTemporalClient } from '../../lib/temporal/connection';
import { createLogger } from '../../lib/log';
import type { HandlerSet } from '@durable-mcp/handlers';
import { loadHandlers } from '../../cli/start/handler-module';
import { builtInHandlerVersion } from '../../lib/handler-set/handler-version';
import { startService } from '../../cli/start/start-service';
import { installTemporalLogger } from '../../lib/temporal/logging';
import { readStackInfo } from './stack-info';

export interface TestService {
  config: Config;
  /**
   * The task queue's Temporal client, for what an operator does in the Web UI (cancel, terminate,
   * describe), with the service's data converter: it reads payloads as the service wrote them.
   */
  temporal: Client;
  url: string;
  pool: Pool;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

export const TEST_KEY_RING = `test1:${randomBytes(32).toString('base64')}`;
/** The payload codec's key ring of every test service (PAYLOAD_CODEC_KEYS), apart from the requestState one. */
export const TEST_CODEC_KEY_RING = `codec1:${randomBytes(32).toString('base64')}`;
/** The answer page's own key ring (ANSWER_SESSION_KEYS), apart from both. */
export const TEST_ANSWER_SESSION_KEY_RING = `answers1:${randomBytes(32).toString('base64')}`;
/**
 * The evidence log's signing key of every test service (EVIDENCE_SIGNING_KEYS): one fixed key, so
 * the entries every test file appends to the shared Postgres form one log that verifies as a whole.
 */
export const TEST_EVIDENCE_KEY_RING = `testev1:${Buffer.alloc(32, 0x45).toString('base64')}`;
/** The key rings, as the environment of an API or worker process started by a test. */
export const TEST_KEY_RINGS = {
  REQUEST_STATE_KEYS: TEST_KEY_RING,
  PAYLOAD_CODEC_KEYS: TEST_CODEC_KEY_RING,
  ANSWER_SESSION_KEYS: TEST_ANSWER_SESSION_KEY_RING,
  EVIDENCE_SIGNING_KEYS: TEST_EVIDENCE_KEY_RING,
};

let runtimeInstalled = false;
/** The SDK's runtime is process-wide and installed once: route its lines into the test logger. */
function quietTemporalRuntime(log: ReturnType<typeof createLogger>): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  installTemporalLogger(log, 'WARN');
}

/**
 * Tests share a service and leave calls waiting on purpose, then call the same tool with the same
 * arguments expecting an exchange of its own: here identical calls do not join a running one
 * unless a test says so (`JOINED_IDENTICAL_CALLS`). The join itself is tested where it is the
 * subject (test/answers/long-waits.int.test.ts, test/storage/exchange-store.int.test.ts), and the
 * conformance suite runs on the service's defaults.
 */
export const SEPARATE_IDENTICAL_CALLS = { REATTACH_IDENTICAL_CALLS_MS: '0' };
/** The service's default (REATTACH_IDENTICAL_CALLS_MS, 24 h): identical calls join a running one. */
export const JOINED_IDENTICAL_CALLS = { REATTACH_IDENTICAL_CALLS_MS: '86400000' };

/**
 * `handlers` replaces the configured set, for tests of what a misbehaving handler does to an
 * exchange; it is versioned as a built-in set is (`<name>@<service version>`) unless
 * `handlerVersion` says otherwise.
 */
export type TestServiceOptions = Parameters<typeof startTestService>[1];

export async function startTestService(
  env: Record<string, string> = {},
  options: {
    handlers?: HandlerSet;
    handlerVersion?: string;
    /** A workflow bundle other than the shared one (one with more workflow interceptor modules, say). */
    workflowBundle?: { code: string } | { codePath: string };
  } = {},
): Promise<TestService> {
  const stack = readStackInfo();
  const config = parseConfig({
    DATABASE_URL: stack.databaseUrl,
    TEMPORAL_ADDRESS: stack.temporalAddress,
    TEMPORAL_TASK_QUEUE: `test-${randomUUID()}`,
    REQUEST_STATE_KEYS: TEST_KEY_RING,
    PAYLOAD_CODEC_KEYS: TEST_CODEC_KEY_RING,
    ANSWER_SESSION_KEYS: TEST_ANSWER_SESSION_KEY_RING,
    EVIDENCE_SIGNING_KEYS: TEST_EVIDENCE_KEY_RING,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    OUTCOME_POLL_MS: '500',
    ...SEPARATE_IDENTICAL_CALLS,
    ...env,
  });
  const log = createLogger('test', config.logLevel);
  quietTemporalRuntime(log);
  const service = await startService({
    config,
    handlers: options.handlers
      ? {
          set: options.handlers,
          version: options.handlerVersion ?? builtInHandlerVersion(options.handlers.name),
          origin: 'test',
        }
      : await loadHandlers(config.handlers),
    log,
    poolSize: 4,
    worker: { workflowBundle: options.workflowBundle ?? { codePath: stack.workflowBundlePath } },
  });
  const worker = service.worker!;
  const temporalConnection = await connectTemporalClient(config.temporal);
  const temporal = new Client({
    connection: temporalConnection,
    namespace: config.temporal.namespace,
    dataConverter: serviceDataConverter(config.payloadCodec),
  });

  return {
    config,
    temporal,
    url: service.api!.url,
    pool: service.pool!,
    startWorker: () => worker.start(),
    stopWorker: () => worker.stop(),
    async close() {
      await temporalConnection.close();
      await service.stop();
    },
  };
}

/** Stands for the service `get` returns once started; reading it before then throws. */
function standIn(get: () => TestService | undefined): TestService {
  return new Proxy({} as TestService, {
    get(_target, key) {
      const started = get();
      if (!started) throw new Error('the test service is not started yet: use it inside a test or a hook');
      const value = started[key as keyof TestService];
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}

/**
 * The test service of one describe block (or file): started before its tests, closed after them.
 * What it returns stands for the started service (reading it before then throws).
 */
export function useTestService(env: Record<string, string> = {}, options?: TestServiceOptions): TestService {
  let started: TestService | undefined;
  beforeAll(async () => {
    started = await startTestService(env, options);
  });
  afterAll(async () => {
    await started?.close();
  });
  return standIn(() => started);
}

/**
 * Two API replicas of one deployment for a describe block: both on one task queue, served by one
 * worker (the first's), as two API processes behind a load balancer would be.
 */
export function useReplicaPair(): [TestService, TestService] {
  let first: TestService | undefined;
  let second: TestService | undefined;
  beforeAll(async () => {
    first = await startTestService();
    second = await startTestService({ TEMPORAL_TASK_QUEUE: first.config.temporal.taskQueue });
    await second.stopWorker(); // one worker (the first's) serves the shared queue
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });
  return [standIn(() => first), standIn(() => second)];
}
