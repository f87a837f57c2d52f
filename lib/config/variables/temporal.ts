/** Where the service's records and its exchanges live: Postgres, Temporal, the worker and its payload codec. */
import { z } from 'zod';
import { documented } from './documented';
import { boolean, integer, keyRing, unsetWhenEmpty } from './value-kinds';
import { FAIRNESS_KEY_SOURCES } from '../../exchange/fairness';

/** What PAYLOAD_CODEC_NAMESPACE_ONLY says of payloads bound to the namespace only, where a workflow's are expected. */
export const NAMESPACE_ONLY_PAYLOADS = ['refuse', 'accept'] as const;
export type NamespaceOnlyPayloads = (typeof NAMESPACE_ONLY_PAYLOADS)[number];

/** What PAYLOAD_CODEC_UNBOUND may say of payloads encrypted before they were bound. */
export const UNBOUND_PAYLOADS = ['refuse', 'accept', 'write'] as const;
export type UnboundPayloads = (typeof UNBOUND_PAYLOADS)[number];

/** Postgres */
export const POSTGRES_VARIABLES = {
  DATABASE_URL: documented(
    z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
    "Postgres for the service's records; the statements every round makes are named prepared statements, so a pooler between the service and Postgres must keep them (PgBouncer in session mode, or 1.21 and later with `max_prepared_statements` set)",
    '(required)',
  ),
  DATABASE_POOL_SIZE: documented(integer(1).default(10), 'Postgres connections per process'),
  OUTCOME_POLL_MS: documented(
    integer(50).default(1000),
    'how often waits read Postgres while the `LISTEN` connection is down (otherwise a notification wakes them)',
  ),
};

/** Temporal and the worker */
export const TEMPORAL_VARIABLES = {
  TEMPORAL_ADDRESS: documented(z.string().min(1).default('127.0.0.1:7233'), "Temporal's frontend, `host:port`"),
  TEMPORAL_NAMESPACE: documented(z.string().min(1).default('default'), 'the Temporal namespace exchanges run in'),
  TEMPORAL_TASK_QUEUE: documented(
    z.string().min(1).default('mcp-exchanges'),
    'the task queue the worker polls and the API starts exchanges on',
  ),
  FAIRNESS_KEY: documented(
    z.enum(FAIRNESS_KEY_SOURCES).default('principal'),
    "whose share of the workers an exchange's tasks take when they wait in the task queue (its Temporal fairness key, a digest): `principal`, each caller's; `tenant`, each tenant's, the value of `TENANT_CLAIM` in the caller's token (a token without it is keyed by its principal). Takes effect only on a Temporal server with fairness on ([Fairness](operators.md#fairness)); elsewhere the keys are kept and ignored",
  ),
  WORKER_MAX_CACHED_WORKFLOWS: documented(
    integer(0).default(1000),
    'exchange workflows a worker keeps in memory (about 0.2 MB each); past it the least recently used is evicted and replayed from its history when next signalled, so worker memory stays bounded however many exchanges wait on a person',
  ),
  WORKER_SHUTDOWN_GRACE_MS: documented(
    integer(0, 600_000).default(10_000),
    "how long a stopping worker (`SIGTERM`) lets the rounds it runs finish and record before it cancels them; compose's `stop_grace_period` must stay above it",
  ),
  WORKER_VERSIONING: documented(
    z.enum(['off', 'pinned']).default('off'),
    '`pinned`: Temporal Worker Versioning, each exchange finished by the worker version that started it while new ones go to the current version ([Rolling out a new version](deploying.md#rolling-out-a-new-version)); `off`: any worker on the task queue runs any exchange',
  ),
  WORKER_DEPLOYMENT_NAME: documented(
    z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^.\s]+$/, 'must not contain "." or spaces (Temporal refuses a deployment name with a dot)')
      .default('durable-mcp'),
    'with `WORKER_VERSIONING=pinned`: the worker deployment the workers belong to (no `.`: Temporal refuses one)',
  ),
  WORKER_BUILD_ID: documented(
    unsetWhenEmpty(z.string().trim().min(1).max(255)),
    "with `WORKER_VERSIONING=pinned`: this worker's version in the deployment",
    '(the handler version: `acme-tools@1.2.0`, `demo@0.1.0`)',
  ),
  WORKER_PROMOTE: documented(
    z.enum(['off', 'current']).default('current'),
    "with `pinned`: `current` makes a worker's version the deployment's current one once it polls, unless a version created after it is current (an old replica restarting does not roll back); `off` leaves that to the operator (`temporal worker deployment set-current-version`)",
  ),
  PAYLOAD_CODEC_KEYS: documented(
    keyRing(),
    'the keys that encrypt every payload the service puts into Temporal; the format of `REQUEST_STATE_KEYS`, a ring of its own; the first encrypts, all decrypt ([rotation](security.md#payloads-in-temporal-encrypted-read-through-the-codec-endpoint))',
    '(required; `npm run dev` makes a development key)',
  ),
  PAYLOAD_CODEC_ACCEPT_PLAINTEXT: documented(
    boolean('false'),
    "upgrades only: `true` reads payloads that are not encrypted, for a deployment that ran before payloads were encrypted (its running exchanges' histories are in clear); back to `false` once no exchange from before the upgrade runs. Off, a payload in clear fails decoding (`a payload that is not encrypted was refused`)",
  ),
  PAYLOAD_CODEC_NAMESPACE_ONLY: documented(
    z.enum(NAMESPACE_ONLY_PAYLOADS).default('refuse'),
    "payloads bound to the namespace only, naming no workflow: what `/codec/encode` mints without `X-Workflow-Id` (the Temporal Web UI's and CLI's encoding). `refuse`: a worker takes a workflow's input, signals and activity results only when bound to that workflow, so a namespace-only payload (an answer typed into the UI, one copied from another history) is refused. `accept` takes them for every workflow of the namespace: only while you send payloads by hand through the UI or CLI; a single workflow's payload is minted bound with `X-Workflow-Id` instead",
  ),
  PAYLOAD_CODEC_UNBOUND: documented(
    z.enum(UNBOUND_PAYLOADS).default('refuse'),
    "payloads encrypted before each was [bound to its namespace, workflow and role](security.md#payloads-in-temporal-encrypted-read-through-the-codec-endpoint), by a version before that. `refuse`: a worker acts only on payloads bound to where it reads them, so one copied from another exchange's history is refused. Upgrades only: `accept` reads them too (while exchanges started before the upgrade run: meanwhile such a payload copied into another exchange is taken); `write` also writes them, the first step of a rollout while workers of the earlier version, which cannot read a bound payload, still run exchanges; then `accept`, then `refuse`",
  ),
};
