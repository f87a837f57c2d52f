/**
 * Which process reads what. The API and the worker parse one schema, but some secrets serve one
 * of them alone, and a deployment gives each process only those it uses: the worker runs handler
 * code, so a secret it holds is one a handler could read. docker-compose.yml follows these lists,
 * and test/operating/compose-file.unit.test.ts holds it to them.
 */

/** `all` is one process serving both (`durable-mcp start`, the tests, the dev stacks). */
export type ProcessRole = 'api' | 'worker' | 'all';

/**
 * Secrets only the API uses: the admin and codec tokens (/admin, /codec), the answer page's
 * client secret and cookie keys, the introspection client's secret (it checks MCP callers'
 * opaque tokens) and the evidence log's signing keys (it judges every answer). The worker never
 * verifies a caller, serves a page or signs evidence.
 */
export const API_ONLY_SECRETS = [
  'ADMIN_TOKEN',
  'CODEC_ENCODE_TOKEN',
  'ANSWER_OIDC_CLIENT_SECRET',
  'ANSWER_SESSION_KEYS',
  'OAUTH_INTROSPECTION_CLIENT_SECRET',
  // The evidence log's private keys: a worker (handler code) holding them could sign forged entries.
  'EVIDENCE_SIGNING_KEYS',
] as const;

/** Secrets only the worker uses: the webhooks' signing secrets (the worker sends every webhook). */
export const WORKER_ONLY_SECRETS = ['WEBHOOK_SECRETS'] as const;

/**
 * Secrets both processes use: the database URL (it carries the password), the two key rings that
 * must be the same on both (sealed requestStates, encrypted payloads), the metrics scrape token,
 * Temporal's API key, and the gateway's credential at its upstream (the API lists the upstream's
 * tools, the worker calls them). With the two lists above, every secret the service reads: a
 * deployment keeps these out of plain configuration (the Helm chart puts them in Secrets).
 */
export const SHARED_SECRETS = [
  'DATABASE_URL',
  'REQUEST_STATE_KEYS',
  'PAYLOAD_CODEC_KEYS',
  'METRICS_TOKEN',
  'TEMPORAL_API_KEY',
  'UPSTREAM_BEARER_TOKEN',
] as const;

/** Secrets without which the API does not start, beyond those the schema itself requires of every process. */
export const API_REQUIRED_SECRETS = ['EVIDENCE_SIGNING_KEYS'] as const;

/** The secrets a process of `role` reads. */
export const secretsOf = (role: Exclude<ProcessRole, 'all'>): readonly string[] =>
  role === 'api' ? [...SHARED_SECRETS, ...API_ONLY_SECRETS] : [...SHARED_SECRETS, ...WORKER_ONLY_SECRETS];

/** Whether a process of `role` serves the API (and so needs the API's secrets). */
export const servesApi = (role: ProcessRole): boolean => role !== 'worker';
/** Whether a process of `role` runs the worker (and so needs the worker's secrets). */
export const runsWorker = (role: ProcessRole): boolean => role !== 'api';
