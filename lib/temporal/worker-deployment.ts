/**
 * Temporal Worker Versioning (WORKER_VERSIONING=pinned), over the raw WorkflowService RPCs (the
 * TypeScript SDK 1.24 has no client API for worker deployments). The worker uses it to promote its
 * version; the admin API and the worker's metrics use it to say which versions still hold
 * exchanges.
 *
 * What the server does (Temporal Server 1.32; docs/deploying.md "Rolling out a new version"):
 * - a version exists once one of its workers has polled; until then every call naming it answers
 *   NOT_FOUND;
 * - new exchanges go to the deployment's current version only: a version that is not current gets
 *   none, and with no current version at all a started workflow waits for one;
 * - an exchange started on a version is pinned to it: its later workflow tasks, its local-activity
 *   rounds and its regular-activity rounds all run on that version's workers;
 * - visibility marks a pinned workflow with `TemporalWorkerDeploymentVersion = '<deployment>:<build id>'`
 *   (a colon, not the SDK's `deployment.buildId`), which is what the counts here query.
 */
import { temporal } from '@temporalio/proto';
import type { WorkerDeploymentOptions } from '@temporalio/worker';
import type { WorkerVersioningConfig } from '../config';
import type { Logger } from '../log';

type WorkflowService = temporal.api.workflowservice.v1.WorkflowService;
const { WorkerDeploymentVersionStatus, VersionDrainageStatus } = temporal.api.enums.v1;

export interface DeploymentVersion {
  deploymentName: string;
  buildId: string;
}

/** The version a worker runs as: WORKER_BUILD_ID, else the version of the handlers it serves. */
export function workerVersion(versioning: WorkerVersioningConfig, handlerVersion: string): DeploymentVersion {
  return { deploymentName: versioning.deploymentName, buildId: versioning.buildId ?? handlerVersion };
}

/** The worker's opt-in: its version, and every exchange workflow pinned to the version that started it. */
export function workerDeploymentOptions(version: DeploymentVersion): WorkerDeploymentOptions {
  return { useWorkerVersioning: true, version, defaultVersioningBehavior: 'PINNED' };
}

/** How visibility spells a version (`TemporalWorkerDeploymentVersion`): `<deployment>:<build id>`. */
export function visibilityVersion(version: DeploymentVersion): string {
  return `${version.deploymentName}:${version.buildId}`;
}

const quoted = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The visibility query of the running workflows pinned to `version`. */
export function pinnedQuery(version: DeploymentVersion): string {
  return `TemporalWorkerDeploymentVersion = ${quoted(visibilityVersion(version))} AND ExecutionStatus = 'Running'`;
}

/** Running workflows pinned to `version` (Temporal's visibility, which trails history by a moment). */
export async function countPinned(
  service: WorkflowService,
  namespace: string,
  version: DeploymentVersion,
): Promise<number> {
  const { count } = await service.countWorkflowExecutions({ namespace, query: pinnedQuery(version) });
  return Number(count ?? 0);
}

const grpcCode = (error: unknown) => (error as { code?: number }).code;
const NOT_FOUND = 5;
const FAILED_PRECONDITION = 9;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const millisOf = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  t ? Number(t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6) : undefined;

export type PromoteResult = 'promoted' | 'already-current' | 'newer-is-current';

/**
 * Makes `version` its deployment's current version, unless the current one was created after it
 * (an old replica restarting must not roll the deployment back). Waits, up to `timeoutMs`, for the
 * server to know the version (its worker must have polled first).
 */
export async function promoteVersion(
  service: WorkflowService,
  namespace: string,
  version: DeploymentVersion,
  options: { identity: string; timeoutMs?: number; log?: Logger },
): Promise<PromoteResult> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    try {
      const { workerDeploymentInfo: info, conflictToken } = await service.describeWorkerDeployment({
        namespace,
        deploymentName: version.deploymentName,
      });
      const summaries = info?.versionSummaries ?? [];
      const own = summaries.find((s) => s.deploymentVersion?.buildId === version.buildId);
      if (!own) throw Object.assign(new Error(`version ${version.buildId} not registered yet`), { code: NOT_FOUND });
      const current = info?.routingConfig?.currentDeploymentVersion;
      if (current?.buildId === version.buildId) return 'already-current';
      const currentSummary = current && summaries.find((s) => s.deploymentVersion?.buildId === current.buildId);
      const currentCreated = millisOf(currentSummary?.createTime);
      const ownCreated = millisOf(own.createTime);
      if (currentCreated !== undefined && ownCreated !== undefined && currentCreated > ownCreated)
        return 'newer-is-current';
      await service.setWorkerDeploymentCurrentVersion({
        namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        conflictToken,
        identity: options.identity,
      });
      return 'promoted';
    } catch (error) {
      // NOT_FOUND: the deployment or the version is not known yet (no poll has reached the server);
      // FAILED_PRECONDITION: another change came first (the conflict token), or its pollers are not
      // seen yet. Both settle within seconds.
      const code = grpcCode(error);
      if ((code !== NOT_FOUND && code !== FAILED_PRECONDITION) || Date.now() > deadline) throw error;
      options.log?.debug({ err: error, ...version }, 'worker version not promotable yet; retrying');
      await sleep(250);
    }
  }
}

export interface VersionView {
  buildId: string;
  /** `current`, `ramping`, `draining` (no longer current, still holds exchanges), `drained`, `inactive`. */
  status: string;
  /** Temporal's drainage verdict for a version that is no longer current: `draining` or `drained`. */
  drainage?: string;
  createdAt?: string;
  /** Running exchanges pinned to this version (visibility). */
  runningExchanges: number;
}

export interface DeploymentView {
  deploymentName: string;
  currentBuildId?: string;
  versions: VersionView[];
}

const statusName = (status: number | null | undefined) =>
  (WorkerDeploymentVersionStatus[status ?? 0] ?? 'WORKER_DEPLOYMENT_VERSION_STATUS_UNSPECIFIED')
    .replace(/^WORKER_DEPLOYMENT_VERSION_STATUS_/, '')
    .toLowerCase();
const drainageName = (status: number | null | undefined) =>
  (VersionDrainageStatus[status ?? 0] ?? 'VERSION_DRAINAGE_STATUS_UNSPECIFIED')
    .replace(/^VERSION_DRAINAGE_STATUS_/, '')
    .toLowerCase();

/**
 * The deployment's versions, newest first, each with its status and the running exchanges pinned
 * to it; undefined when no worker of the deployment has polled yet.
 */
export async function describeDeployment(
  service: WorkflowService,
  namespace: string,
  deploymentName: string,
): Promise<DeploymentView | undefined> {
  let info: temporal.api.deployment.v1.IWorkerDeploymentInfo | null | undefined;
  try {
    ({ workerDeploymentInfo: info } = await service.describeWorkerDeployment({ namespace, deploymentName }));
  } catch (error) {
    if (grpcCode(error) === NOT_FOUND) return undefined;
    throw error;
  }
  const summaries = [...(info?.versionSummaries ?? [])].sort(
    (a, b) => (millisOf(b.createTime) ?? 0) - (millisOf(a.createTime) ?? 0),
  );
  const versions = await Promise.all(
    summaries.map(async (summary): Promise<VersionView> => {
      const buildId = summary.deploymentVersion?.buildId ?? '';
      const created = millisOf(summary.createTime);
      const drainage = summary.drainageInfo?.status ?? summary.drainageStatus;
      return {
        buildId,
        status: statusName(summary.status),
        ...(drainage ? { drainage: drainageName(drainage) } : {}),
        ...(created !== undefined ? { createdAt: new Date(created).toISOString() } : {}),
        runningExchanges: await countPinned(service, namespace, { deploymentName, buildId }),
      };
    }),
  );
  const current = info?.routingConfig?.currentDeploymentVersion?.buildId;
  return { deploymentName, ...(current ? { currentBuildId: current } : {}), versions };
}
