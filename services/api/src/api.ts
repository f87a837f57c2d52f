/**
 * Wires the API's dependencies (Postgres pool, LISTEN hub and outcome waiter, Temporal client)
 * into the app and starts listening. `main.ts`, the dev launcher and the tests all start the API
 * through here. Beside it: the MCP endpoint of each era (mcp-endpoints.ts), what it logs as it
 * starts (startup-log.ts), what `/readyz` checks (readiness-checks.ts), and the answer endpoint,
 * admin API and codec endpoint built from the configuration (endpoints-beside-mcp.ts).
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Client } from '@temporalio/client';
import { checkApiExposure, evidenceKeysOf, type Config } from '../../../lib/config';
import { connectTemporalClient } from '../../../lib/temporal/connection';
import { createAdminStorePg } from '../../../lib/db/admin-store-pg';
import { createExchangeStorePg } from '../../../lib/db/exchange-store-pg';
import { createTaskStorePg } from '../../../lib/db/task-store-pg';
import { migrationFiles } from '../../../lib/db/migrate';
import { createOutcomeWaiter, WAITED_CHANNELS } from '../../../lib/db/outcome-waiter';
import { createPgListener } from '../../../lib/db/pg-listener';
import { DECISION_CHANNEL } from '../../../lib/db/gateway-decisions-pg';
import { createPool } from '../../../lib/db/pool';
import type { HandlerSet } from '@durable-mcp/handlers';
import type { Logger } from '../../../lib/log';
import { tracingClientInterceptors } from '../../../lib/tracing/temporal-tracing';
import { type Tracing } from '../../../lib/tracing/tracer-provider';
import { apiMetrics, apiRegistry } from '../../../lib/metrics/api-metrics';
import { serviceDataConverter } from '../../../lib/payload-codec/data-converter';
import { createRequestStateCodec } from '../../../lib/state/request-state';
import { createSealer } from '../../../lib/state/sealer';
import { createApp } from './app';
import { listenFailure } from './listen-failure';
import { endpointsBesideMcp } from './endpoints-beside-mcp';
import { createExchangeGateway } from '../../../lib/exchange-client/exchange-gateway';
import { createExchangeLegs } from './exchange-legs/exchange-legs';
import { createQuotaGate } from './exchange-legs/quotas';
import { createQuotaCounterStore } from '../../../lib/db/quota-counters-pg';
import { compileQuotaRules } from '../../../lib/quotas/quota-counters';
import { createExchangeReconciler } from '../../../lib/exchange-client/exchange-reconciler';
import { createShutdown } from './http/shutdown';
import { startIdleExchangeSweeper } from '../../../lib/exchange-client/idle-exchange-sweeper';
import { startStuckWorkflowSweeper } from '../../../lib/exchange-client/stuck-workflow-sweeper';
import { createWorkflowTaskProbe } from '../../../lib/exchange-client/workflow-task-probe';
import { createArgumentChecks } from '../../../lib/handler-set/argument-checks';
import { toolParamHeaders } from '../../../lib/handler-set/tool-param-headers';
import { createLegacyStorePg } from '../../../lib/db/legacy-store-pg';
import { logStartup } from './startup-log';
import { mcpEndpoints } from './mcp-endpoints';
import { readinessChecks } from './readiness-checks';
import type { ListChanges } from '../../../lib/handler-set/list-changes';

/** How often a draining API closes the connections whose responses have ended. */
const IDLE_CONNECTION_SWEEP_MS = 100;

export interface RunningApi {
  url: string;
  server: Server;
  close(graceMs?: number): Promise<void>;
}

/**
 * `served`: the handler set and its version (cli/start/handler-module.ts `loadHandlers`); each
 * exchange this API starts records that version.
 */
export async function startApi(
  config: Config,
  served: { set: HandlerSet; version: string; listChanges?: ListChanges },
  log: Logger,
  tracing?: Tracing,
): Promise<RunningApi> {
  // Before anything opens: no unauthenticated API on an address others reach, unless told so.
  checkApiExposure(config);
  // Likewise without the keys every decision on a question is signed with.
  evidenceKeysOf(config);
  const handlers = served.set;
  // Before anything opens: a tool with an invalid x-mcp-header annotation stops the start.
  const paramHeaders = toolParamHeaders(handlers);
  // Likewise a tool whose inputSchema does not compile.
  const argumentChecks = createArgumentChecks(handlers);
  const pool = createPool(config.database.url, config.database.poolSize, log);
  const store = createExchangeStorePg(pool, { legacyStreamMaxEvents: config.limits.legacyStreamMaxEvents });
  const legacy = createLegacyStorePg(pool, config.limits);
  const tasks = createTaskStorePg(pool);
  const listener = await createPgListener({
    databaseUrl: config.database.url,
    channels: [...WAITED_CHANNELS, DECISION_CHANNEL],
    log,
  });
  const waiter = createOutcomeWaiter({ listener, store, pollMs: config.database.outcomePollMs, log });
  // TLS, mTLS and the API key as configured; a refused handshake fails the start with its reason.
  const connection = await connectTemporalClient(config.temporal);
  const client = new Client({
    connection,
    namespace: config.temporal.namespace,
    dataConverter: serviceDataConverter(config.payloadCodec),
    // Traces on: the workflow start and each signal are spans of the leg, their context in the headers.
    ...(tracing ? { interceptors: tracingClientInterceptors(tracing) } : {}),
  });
  const requestState = createRequestStateCodec(createSealer(config.requestState.keys), config.requestState.ttlMs);

  const gateway = createExchangeGateway(client, config.temporal.taskQueue, {
    handlers,
    log,
    fairnessKey: config.temporal.fairnessKey,
  });
  const admin = createAdminStorePg(pool);
  const probe = createWorkflowTaskProbe(client, config.temporal.taskQueue);
  const reconciler = createExchangeReconciler({
    gateway,
    store,
    log,
    probe,
    // Endings Temporal left unrecorded are counted here; the worker counts those it records.
    onEndingRecorded: (exchangeId, outcome) =>
      void admin
        .getExchange(exchangeId)
        .then((detail) => detail && apiMetrics.exchangeEnded(handlers, detail.exchange, outcome))
        .catch(() => undefined),
  });
  const stopReadingOpenExchanges = apiMetrics.readOpenExchangesFrom(() => store.countRunning());
  const migrations = await migrationFiles();
  const idleSweeper = startIdleExchangeSweeper(
    { store, reconciler, log },
    {
      idleMs: config.exchange.roundTimeoutMs + config.exchange.handlerTimeoutMs + 300_000,
      everyMs: config.retention.sweepEveryMs,
    },
  );
  // Exchanges whose workflow tasks keep failing are ended (docs/operators.md, "Stuck workflows").
  const stuckSweeper = startStuckWorkflowSweeper({ pool, probe, reconciler, log }, config.stuckWorkflows);
  const besideMcp = endpointsBesideMcp(config, {
    pool,
    connection,
    admin,
    store,
    gateway,
    reconciler,
    waiter,
    listener,
    log,
  });
  const legs = createExchangeLegs({
    ...(besideMcp.callerPages ? { callerPages: besideMcp.callerPages } : {}),
    gateway,
    handlerVersion: served.version,
    ...(config.webhooks.urls.length > 0 ? { questionEvents: { pageBase: config.answers.publicOrigin ?? '' } } : {}),
    ...(config.quotas.length > 0
      ? { quotas: createQuotaGate(compileQuotaRules(config.quotas), createQuotaCounterStore(pool), log) }
      : {}),
    store,
    waiter,
    reconciler,
    requestState,
    tasks,
    limits: {
      ...config.exchange,
      httpWaitMs: config.http.waitMs,
      questionHoldMs: config.http.questionHoldMs,
      maxRoundInputBytes: config.limits.maxRoundInputBytes,
      maxRepeatedAnswers: config.limits.maxRepeatedAnswers,
      maxTargetLength: config.limits.maxTargetLength,
      maxRunningExchanges: config.limits.maxRunningExchanges,
      maxRunningExchangesPerPrincipal: config.limits.maxRunningExchangesPerPrincipal,
      maxInflightLegs: config.limits.maxInflightLegs,
      maxInflightLegsPerPrincipal: config.limits.maxInflightLegsPerPrincipal,
      servedAsksMaxBytes: config.limits.servedAsksMaxBytes,
      capacityRetryAfterS: config.limits.capacityRetryAfterS,
    },
    log,
  });
  const shutdown = createShutdown();
  const app = createApp({
    shutdown,
    trustProxy: config.http.trustProxy,
    ...mcpEndpoints(config, {
      handlers,
      served,
      legs,
      store,
      legacy,
      tasks,
      gateway,
      reconciler,
      waiter,
      requestState,
      paramHeaders,
      argumentChecks,
      shutdown,
      log,
      ...(besideMcp.callerPages ? { callerPages: besideMcp.callerPages } : {}),
    }),
    maxBodyBytes: config.http.maxBodyBytes,
    budget: { maxJsonDepth: config.limits.maxJsonDepth, maxRequestIdLength: config.limits.maxRequestIdLength },
    sseMaxBufferedBytes: config.limits.sseMaxBufferedBytes,
    allowedOrigins: config.http.allowedOrigins,
    listenHost: config.http.host,
    allowedHosts: config.http.allowedHosts,
    ...(config.answers.publicOrigin !== undefined ? { answerPublicOrigin: config.answers.publicOrigin } : {}),
    log,
    readiness: {
      checkTimeoutMs: config.http.readyCheckTimeoutMs,
      log,
      checks: readinessChecks(pool, connection, migrations, config.http.readyCheckTimeoutMs),
    },
    metrics: apiRegistry,
    ...(config.metricsToken !== undefined ? { metricsToken: config.metricsToken } : {}),
    auth: config.auth,
    ...besideMcp.routers,
  });
  logStartup(config, log);

  // Express 5 calls the listen callback with the error when the port is taken: that is a failed start.
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.http.port, config.http.host, (error?: Error) =>
      error ? reject(listenFailure(error, config.http.host, config.http.port)) : resolve(s),
    );
  });
  // Long enough for the HTTP wait budget; short enough that a dead client frees its socket.
  server.requestTimeout = config.http.waitMs + 30_000;
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.http.host}:${port}/mcp`;
  log.info({ url, handlerSet: handlers.name, handlerVersion: served.version }, 'API listening');

  return {
    url,
    server,
    /**
     * Drains, then stops (http/shutdown.ts): the listener closes (a new connection is refused) and
     * a request on a kept-alive one gets 503; waiting legs answer "come back" at once, and every
     * response closes its connection, so clients retry on another replica; streams whose clients
     * resume elsewhere end at once with a reconnect hint, the others when what they carry is done
     * or just before `graceMs` runs out. Whatever connection is left then is closed.
     */
    async close(graceMs = config.http.drainGraceMs) {
      const endShutdown = shutdown.begin(graceMs);
      log.info({ graceMs }, 'API draining');
      idleSweeper.stop();
      stuckSweeper.stop();
      besideMcp.stop();
      stopReadingOpenExchanges();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A connection whose last response ended is closed at once, not after its keep-alive timeout.
      server.closeIdleConnections();
      const idle = setInterval(() => server.closeIdleConnections(), IDLE_CONNECTION_SWEEP_MS);
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearInterval(idle);
      clearTimeout(force);
      endShutdown();
      await waiter.close();
      await listener.close();
      await connection.close();
      await pool.end();
    },
  };
}
