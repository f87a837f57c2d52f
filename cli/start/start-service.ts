/**
 * The one start-up and shutdown of the service in a process: migrate Postgres, then the worker (on
 * its own pool), then the API; stopped the other way round (the API drains first, then the worker
 * finishes its rounds, then the pool closes). Both process mains, `npm run dev`, the bench and the
 * test harness start the service through here. It sits in services/, beside the two services it
 * composes: the mains use it, so it is product code, not dev tooling, and lib/ (which the services
 * import) must not import the services.
 */
import type { Pool } from 'pg';
import type { Config } from '../../lib/config';
import { migrate } from '../../lib/db/migrate';
import { createPool } from '../../lib/db/pool';
import { checkPostgresReachable } from '../../lib/db/postgres-connect-failure';
import type { Logger } from '../../lib/log';
import { startTracing, type Tracing } from '../../lib/tracing/tracer-provider';
import { startApi, type RunningApi } from '../../services/api/src/api';
import type { ExchangeWorkerDeps } from '../../services/worker/src/worker';
import type { LoadedHandlers } from './handler-module';
import { createServiceWorker, type ServiceWorker } from './service-worker';
import { createUpstreamCatalog, type UpstreamCatalog } from '../../lib/gateway/upstream-catalog';
import { gatewayHandlerSet } from '../../lib/gateway/gateway-handler-set';
import { startPolicyReload, type PolicyReload } from '../../lib/gateway/policy-reload';
import { createDecisionRecordPg } from '../../lib/db/gateway-decisions-pg';

export type WorkerRunOptions = Pick<ExchangeWorkerDeps, 'workflowBundle' | 'interceptors'>;

export interface ServiceOptions {
  config: Config;
  /** The set served and its version (`loadHandlers`): the API records the version with each exchange it starts. */
  handlers: LoadedHandlers;
  log: Logger;
  /** What the API and the worker log to, when not `log` (the dev launcher labels each part). */
  apiLog?: Logger;
  workerLog?: Logger;
  /**
   * Run the worker (default true); an object runs it with options: `workflowBundle`, a prebuilt
   * bundle (tests build one once), and `interceptors`, extra Temporal worker interceptors.
   */
  worker?: boolean | WorkerRunOptions;
  /** Serve the API (default true). */
  api?: boolean;
  /** Connections of the worker's pool (default `DATABASE_POOL_SIZE`; only the API: one, to migrate). */
  poolSize?: number;
}

export interface RunningService {
  api?: RunningApi;
  worker?: ServiceWorker;
  /** The worker's Postgres pool, open until `stop()`. Without a worker the migration pool is closed at once. */
  pool?: Pool;
  /** The process's tracer provider while traces are on (OTEL_EXPORTER_OTLP_ENDPOINT); flushed at `stop()`. */
  tracing?: Tracing;
  /** The upstreams' tools (UPSTREAMS_FILE, UPSTREAM_URL), when the service stands in front of any. */
  upstreams?: UpstreamCatalog;
  /** Reads UPSTREAMS_FILE again for its policies, when there is one. */
  policyReload?: PolicyReload;
  /** Stops everything once (later calls wait for the same stop); every part is tried, then the first error thrown. */
  stop(): Promise<void>;
}

export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { config, log } = options;
  let handlers = options.handlers;
  const withWorker = options.worker ?? true;
  const service: RunningService = { stop: () => Promise.resolve() };
  let stopping: Promise<void> | undefined;
  service.stop = () => (stopping ??= stopAll(service));

  const pool = createPool(config.database.url, options.poolSize ?? (withWorker ? config.database.poolSize : 1), log);
  try {
    await checkPostgresReachable(pool, config.database.url);
    await migrate(pool, log);
  } catch (error) {
    await pool.end();
    throw error;
  }
  if (!withWorker) await pool.end();

  const withApi = options.api ?? true;
  if (config.tracing) {
    const role = withApi && withWorker ? 'durable-mcp' : withApi ? 'durable-mcp-api' : 'durable-mcp-worker';
    service.tracing = startTracing(config.tracing, role, handlers.version);
  }
  try {
    if (config.upstreams.length > 0) {
      // Listed before either part serves, for UPSTREAMS_START_WAIT_MS at most: an upstream not
      // listed by then is listed on in the background, and served once it is.
      service.upstreams = createUpstreamCatalog(config.upstreams, log, { startWaitMs: config.upstreamsStartWaitMs });
      await service.upstreams.start();
      if (config.upstreamsFile !== undefined)
        service.policyReload = startPolicyReload(
          config.upstreamsFile,
          config.upstreams,
          service.upstreams,
          log,
          config.upstreamsReloadMs,
          config.exchange,
        );
      const gateway = gatewayHandlerSet(handlers.set, service.upstreams);
      handlers = { ...handlers, set: gateway.set, listChanges: gateway.changes };
    }
    if (withWorker) {
      service.pool = pool;
      // The worker's rounds record their policy decisions, which the API signs into the evidence log.
      service.upstreams?.policies.recordDecisionsIn(createDecisionRecordPg(pool));
      service.worker = createServiceWorker({
        config,
        pool,
        handlers: handlers.set,
        handlerVersion: handlers.version,
        log: options.workerLog ?? log,
        ...(service.tracing ? { tracing: service.tracing } : {}),
        ...(typeof withWorker === 'object' ? withWorker : {}),
      });
      await service.worker.start();
    }
    if (withApi) service.api = await startApi(config, handlers, options.apiLog ?? log, service.tracing);
  } catch (error) {
    await service.stop().catch(() => undefined);
    throw error;
  }
  return service;
}

async function stopAll(service: RunningService): Promise<void> {
  const errors: unknown[] = [];
  const attempt = async (stop: (() => Promise<void>) | undefined) => {
    await stop?.().catch((error: unknown) => errors.push(error));
  };
  await attempt(service.api && (() => service.api!.close()));
  await attempt(service.worker && (() => service.worker!.stop()));
  service.policyReload?.stop();
  await attempt(service.upstreams && (() => service.upstreams!.close()));
  await attempt(service.pool && (() => service.pool!.end()));
  // Last: the spans of everything above are flushed to the collector before the process ends.
  await attempt(service.tracing && (() => service.tracing!.release()));
  if (errors.length) throw errors[0];
}
