/**
 * Builds the Temporal worker that runs exchange workflows and their activities. Dependencies are
 * passed in, so the dev launcher, the tests and `main.ts` share this one construction.
 */
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Pool } from 'pg';
import { createActivities } from '../../../activities';
import type { Config } from '../../../lib/config';
import { createExchangeStorePg } from '../../../lib/db/exchange-store-pg';
import type { HandlerSet } from '@durable-mcp/handlers';
import type { Logger } from '../../../lib/log';
import { serviceDataConverter } from '../../../lib/payload-codec/data-converter';
import { createHandlerStateCodec } from '../../../lib/state/handler-state';
import { createSealer } from '../../../lib/state/sealer';
import { servicePackageVersion } from '../../../lib/handler-set/handler-version';
import { tracingWorkerOptions } from '../../../lib/tracing/temporal-tracing';
import { type Tracing } from '../../../lib/tracing/tracer-provider';
import {
  workerDeploymentOptions,
  workerVersion,
  type DeploymentVersion,
} from '../../../lib/temporal/worker-deployment';

export interface ExchangeWorkerDeps {
  config: Config;
  pool: Pool;
  handlers: HandlerSet;
  /** The version of `handlers` (`loadHandlers`): a round of an exchange started with another is logged as such. */
  handlerVersion?: string;
  log: Logger;
  connection: NativeConnection;
  /** A prebuilt workflow bundle (tests build one once); otherwise the workflows are bundled at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /**
   * Extra Temporal worker interceptors (tracing, say), added to the worker as given. Activity
   * interceptors also wrap rounds and endings run as local activities.
   */
  interceptors?: WorkerOptions['interceptors'];
  /**
   * Traces on (lib/tracing): Temporal's OpenTelemetry activity interceptors, its workflow
   * interceptors module and the sink that exports workflow spans. A prebuilt `workflowBundle` must
   * have been bundled with TRACING_WORKFLOW_INTERCEPTORS_MODULE for workflow spans.
   */
  tracing?: Tracing;
}

/** The given interceptors with tracing's, when on. */
function workerInterceptors(deps: Pick<ExchangeWorkerDeps, 'interceptors' | 'tracing'>) {
  if (!deps.tracing) return { interceptors: deps.interceptors, sinks: undefined };
  const traced = tracingWorkerOptions(deps.tracing);
  const given = deps.interceptors ?? {};
  return {
    interceptors: {
      ...given,
      activity: [...traced.interceptors.activity!, ...(given.activity ?? [])],
      workflowModules: [...traced.interceptors.workflowModules, ...(given.workflowModules ?? [])],
    },
    sinks: traced.sinks,
  };
}

/**
 * The worker deployment version this worker runs as (WORKER_VERSIONING=pinned): WORKER_BUILD_ID,
 * else the version of its handlers; undefined when versioning is off.
 */
export function exchangeWorkerVersion(
  deps: Pick<ExchangeWorkerDeps, 'config' | 'handlerVersion'>,
): DeploymentVersion | undefined {
  const { versioning } = deps.config.temporal;
  if (!versioning) return undefined;
  const handlerVersion = versioning.buildId ?? deps.handlerVersion;
  if (handlerVersion === undefined)
    throw new Error('WORKER_VERSIONING=pinned needs a build id: set WORKER_BUILD_ID or serve a versioned handler set');
  return workerVersion(versioning, handlerVersion);
}

export async function createExchangeWorker(deps: ExchangeWorkerDeps): Promise<Worker> {
  const { config } = deps;
  const version = exchangeWorkerVersion(deps);
  const activities = createActivities({
    store: createExchangeStorePg(deps.pool, {
      legacyStreamMaxEvents: config.limits.legacyStreamMaxEvents,
      maxWaitingQuestionsPerPrincipal: config.limits.maxWaitingQuestionsPerPrincipal,
    }),
    handlers: deps.handlers,
    handlerVersion: deps.handlerVersion,
    handlerState: createHandlerStateCodec(createSealer(config.requestState.keys)),
    log: deps.log,
    handlerTimeoutMs: config.exchange.handlerTimeoutMs,
    localHandlerTimeoutMs: config.exchange.localHandlerTimeoutMs,
    maxHandlerAttempts: config.exchange.maxHandlerAttempts,
    maxQuestionWaitMs: config.exchange.maxQuestionWaitMs,
    webhooks: config.webhooks,
    userAgent: `durable-mcp-webhooks/${servicePackageVersion()}`,
  });
  const { interceptors, sinks } = workerInterceptors(deps);
  return Worker.create({
    connection: deps.connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    activities,
    ...(interceptors ? { interceptors } : {}),
    ...(sinks ? { sinks } : {}),
    // WORKER_VERSIONING=pinned: this worker is one version of the deployment, and an exchange it
    // starts stays on it to the end (its rounds too, local or regular activities), while a newer
    // current version takes the new ones.
    ...(version ? { workerDeploymentOptions: workerDeploymentOptions(version) } : {}),
    // Every payload and failure the worker hands Temporal is encrypted (PAYLOAD_CODEC_KEYS); a
    // prebuilt bundle must have been built with the same failure converter (FAILURE_CONVERTER_PATH).
    dataConverter: serviceDataConverter(config.payloadCodec),
    ...(deps.workflowBundle
      ? { workflowBundle: deps.workflowBundle }
      : { workflowsPath: require.resolve('../../../workflows') }),
    // Workflow-task pollers follow the load (the server says when more would find work) instead of a
    // fixed ten: about 5% more exchanges a second on two cores, at a little less CPU per exchange.
    workflowTaskPollerBehavior: { type: 'autoscaling' },
    // Bounds the worker's memory however many exchanges wait on a person (WORKER_MAX_CACHED_WORKFLOWS).
    maxCachedWorkflows: config.temporal.maxCachedWorkflows,
    // Let in-flight rounds finish (and record) on shutdown instead of abandoning them to a retry
    // (WORKER_SHUTDOWN_GRACE_MS; below compose's stop_grace_period, which a test checks).
    shutdownGraceTime: config.temporal.workerShutdownGraceMs,
    // A round's heartbeats reach Temporal every second (not every 80% of its 10 s timeout), so a
    // slow moment does not time out a live round and start a second attempt beside it.
    maxHeartbeatThrottleInterval: '1 second',
    defaultHeartbeatThrottleInterval: '1 second',
  });
}
