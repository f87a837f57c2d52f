/**
 * How the Helm chart (deploy/helm/durable-mcp) places each variable lib/config declares: set by the
 * chart itself from its structured values, a secret (`secrets.<NAME>`, given only to the processes
 * that read it), or plain configuration (`config.<NAME>`). Every variable is one of the three.
 */
import { SHARED_SECRETS, API_ONLY_SECRETS, WORKER_ONLY_SECRETS, API_REQUIRED_SECRETS } from '../../lib/config';

export const CHART_DIR = 'deploy/helm/durable-mcp';

/** Variables the chart sets from its own values (what to set instead), never from `config`. */
export const CHART_SETS: Readonly<Record<string, string>> = {
  HOST: 'the API listens on all addresses of its pod',
  PORT: 'api.port',
  WORKER_METRICS_HOST: 'the worker serves metrics on all addresses of its pod',
  WORKER_METRICS_PORT: 'worker.metrics.port',
  TEMPORAL_ADDRESS: 'temporal.address',
  TEMPORAL_NAMESPACE: 'temporal.namespace',
  TEMPORAL_TLS: 'temporal.tls.enabled',
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: 'temporal.tls.serverCA (ca.crt of temporal.tls.existingSecret)',
  TEMPORAL_TLS_CLIENT_CERT_PATH: 'temporal.tls.clientCertificate (tls.crt of temporal.tls.existingSecret)',
  TEMPORAL_TLS_CLIENT_KEY_PATH: 'temporal.tls.clientCertificate (tls.key of temporal.tls.existingSecret)',
  TEMPORAL_TLS_SERVER_NAME: 'temporal.tls.serverName',
  WORKER_VERSIONING: 'worker.versioning',
  WORKER_DEPLOYMENT_NAME: 'worker.versioning=pinned: the Worker Controller names it',
  WORKER_BUILD_ID: 'worker.versioning=pinned: the Worker Controller names it',
  WORKER_PROMOTE: 'worker.versioning=pinned: the Worker Controller promotes versions',
};

/** Every secret, the order values.yaml lists them in. */
export const CHART_SECRETS: readonly string[] = [...SHARED_SECRETS, ...API_ONLY_SECRETS, ...WORKER_ONLY_SECRETS];

/**
 * What each pod of the chart reads of the secrets, and which of them it cannot start without:
 * the processes per lib/config/process-role.ts, the chart's two Jobs by what they run
 * (scripts/migrate.ts reads DATABASE_URL; the temporal CLI of the namespace Job TEMPORAL_API_KEY).
 */
export function secretsByPod(
  requiredByAll: readonly string[],
): Record<string, { reads: readonly string[]; requires: readonly string[] }> {
  const api = [...SHARED_SECRETS, ...API_ONLY_SECRETS];
  const worker = [...SHARED_SECRETS, ...WORKER_ONLY_SECRETS];
  return {
    api: { reads: api, requires: [...requiredByAll.filter((n) => api.includes(n as never)), ...API_REQUIRED_SECRETS] },
    worker: { reads: worker, requires: requiredByAll.filter((n) => worker.includes(n as never)) },
    migrations: { reads: ['DATABASE_URL'], requires: ['DATABASE_URL'] },
    'temporal-setup': { reads: ['TEMPORAL_API_KEY'], requires: [] },
  };
}
