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

/** Whether a process of `role` serves the API (and so needs the API's secrets). */
export const servesApi = (role: ProcessRole): boolean => role !== 'worker';
/** Whether a process of `role` runs the worker (and so needs the worker's secrets). */
export const runsWorker = (role: ProcessRole): boolean => role !== 'api';
