/**
 * Builds the admin API (/admin) from the configuration: the admin router behind ADMIN_TOKEN, with
 * the Temporal namespace and Web UI its exchange views link to, and, with WORKER_VERSIONING=pinned,
 * which worker versions still hold exchanges.
 */
import type { Connection } from '@temporalio/client';
import type { Config } from '../../../../lib/config';
import { describeDeployment } from '../../../../lib/temporal/worker-deployment';
import { adminRouter, type AdminRouterDeps } from './admin-router';

/** What the admin router reads and acts through, as the API built it. */
export type AdminEndpointDeps = Pick<
  AdminRouterDeps,
  'admin' | 'questions' | 'evidence' | 'store' | 'gateway' | 'reconciler' | 'waiter' | 'guesses' | 'log'
>;

export function adminEndpoint(config: Config, token: string, connection: Connection, deps: AdminEndpointDeps) {
  const versioning = config.temporal.versioning;
  return adminRouter({
    token,
    ...deps,
    waitMs: config.http.waitMs,
    temporal: { namespace: config.temporal.namespace, uiUrl: config.admin.temporalUiUrl },
    describeTimeoutMs: config.http.readyCheckTimeoutMs,
    // WORKER_VERSIONING=pinned: which worker versions still hold exchanges.
    ...(versioning
      ? {
          describeDeployment: () =>
            describeDeployment(connection.workflowService, config.temporal.namespace, versioning.deploymentName),
        }
      : {}),
  });
}
