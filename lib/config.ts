/**
 * Service configuration, read once from the environment and validated at start-up.
 *
 * Every value has one variable; a missing or malformed one stops the process with a message that
 * names it. Tests and the dev launcher build a config from a plain object with `parseConfig`
 * instead of editing `process.env`.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { z } from 'zod';
import { parseAuthConfig, type AuthConfig } from './auth/auth-config';
import type { KeyRingEntry } from './state/sealer';
import {
  parseTemporalSecurity,
  TEMPORAL_SECURITY_ENV,
  TemporalSecurityError,
  type TemporalSecurityConfig,
} from './temporal-security-config';
import { parseTracingConfig, TRACING_ENV, type TracingConfig } from './tracing/tracing-config';

// Decimal digits only: z.coerce would take "" as 0 and "0x50" as 80.
const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a decimal integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

// An empty value is the same as none (compose passes `VAR: ${VAR:-}` through as "").
const unsetWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** `true` or `false`, spelled so. */
const boolean = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default(fallback)
    .transform((value) => value === 'true');

/**
 * The handler sets the service ships, served by name: `HANDLERS=demo`, or with the older
 * `HANDLER_SET`. handlers/index.ts maps each name to its set (the compiler holds the two together).
 */
export const BUILT_IN_HANDLER_SETS = ['demo', 'conformance', 'bench'] as const;
export type BuiltInHandlerSetName = (typeof BUILT_IN_HANDLER_SETS)[number];

/** What PAYLOAD_CODEC_UNBOUND may say of payloads encrypted before they were bound. */
export const UNBOUND_PAYLOADS = ['refuse', 'accept', 'write'] as const;
export type UnboundPayloads = (typeof UNBOUND_PAYLOADS)[number];

const KEY_RING_PATTERN = /^[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/=_-]+$/;

/** A key ring variable: comma-separated `kid:base64key` pairs (each key is checked for 32 bytes below). */
const keyRing = () =>
  z
    .string()
    .min(1)
    .refine(
      (ring) => ring.split(',').every((entry) => KEY_RING_PATTERN.test(entry.trim())),
      'must be comma-separated kid:base64key pairs',
    );

/** Comma-separated browser origins (`scheme://host[:port]`, nothing after it). */
const origins = () =>
  z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((o) => o.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((o) => URL.canParse(o) && new URL(o).origin === o),
      'must be comma-separated origins such as http://127.0.0.1:8080 (scheme, host and port only)',
    );

const EnvSchema = z.object({
  NODE_ENV: z.string().default('production'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),

  // HTTP
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: integer(0, 65535).default(3000),
  HTTP_WAIT_MS: integer(1).default(25000),
  MAX_BODY_BYTES: integer(1024).default(1048576),
  /** Comma-separated browser origins allowed besides loopback and the server's own host. */
  ALLOWED_ORIGINS: z.string().default(''),
  /**
   * Comma-separated host names (or addresses) clients reach /mcp, /sse and /messages by, besides
   * loopback, HOST itself, MCP_RESOURCE_URL's host and ALLOWED_ORIGINS' hosts: a request whose
   * `Host` names none of them (a DNS name rebound to this server) gets 403.
   */
  ALLOWED_HOSTS: z
    .string()
    .default('')
    .refine(
      (value) =>
        value
          .split(',')
          .map((h) => h.trim())
          .filter(Boolean)
          .every((h) => /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/.test(h)),
      'must be host names or addresses, comma-separated, without scheme or port',
    ),
  /** How long each readiness check of GET /readyz (Postgres, Temporal, migrations) may take before it counts as failed. */
  READY_CHECK_TIMEOUT_MS: integer(100, 60_000).default(2000),
  /**
   * How long a stopping API (SIGTERM) lets what it still serves end by itself: requests in progress
   * and the streams of clients that cannot resume on another replica. Waiting legs answer "come
   * back" and resumable streams end at once; what is left is closed when this runs out.
   */
  API_DRAIN_GRACE_MS: integer(0, 600_000).default(10_000),

  // Operating
  /**
   * The bearer token of the admin API (/admin); unset, the admin routes are off (404). At least
   * 32 characters, so a guessable one is refused at start (`openssl rand -hex 32` makes one).
   */
  ADMIN_TOKEN: unsetWhenEmpty(
    z
      .string()
      .min(32, 'must be at least 32 characters (openssl rand -hex 32)')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  ),
  /** The Temporal Web UI's base URL, for the admin view's link to an exchange's workflow. */
  TEMPORAL_UI_URL: unsetWhenEmpty(
    z
      .string()
      .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')
      .transform((url) => url.replace(/\/+$/, '')),
  ),
  /**
   * Browser origins allowed to call the codec endpoint (/codec, the Temporal Web UI decoding
   * payloads), besides TEMPORAL_UI_URL's own origin.
   */
  CODEC_ALLOWED_ORIGINS: origins(),
  /** Largest body one /codec/decode or /codec/encode request may send. */
  CODEC_MAX_BODY_BYTES: integer(1024, 67_108_864).default(4_194_304),
  /**
   * The bearer token of `POST /codec/encode`, a credential of its own: encoding mints payloads
   * the workers accept as the service's own (a forged answer, say), so neither the admin token nor
   * a sign-in grants it. Unset, /codec/encode is off (decoding needs only the admin token).
   */
  CODEC_ENCODE_TOKEN: unsetWhenEmpty(
    z
      .string()
      .min(32, 'must be at least 32 characters (openssl rand -hex 32)')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  ),
  /** How long a browser signed in to the codec endpoint (/codec/sign-in) stays signed in. */
  CODEC_SESSION_TTL_MS: integer(60_000, 604_800_000).default(28_800_000),
  /**
   * The bearer token GET /metrics of the API and of the worker asks for (a Prometheus scrape
   * config's `authorization`); unset, /metrics is public. At least 32 characters.
   */
  METRICS_TOKEN: unsetWhenEmpty(
    z
      .string()
      .min(32, 'must be at least 32 characters (openssl rand -hex 32)')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  ),
  /** Where the worker serves Prometheus metrics (GET /metrics, its own and the Temporal SDK's); port 0 turns it off. */
  WORKER_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  WORKER_METRICS_PORT: integer(0, 65535).default(9464),

  // Authorization (OAuth 2.1 resource server; see the README's "Authorization")
  /** `off`: every caller is one anonymous principal (local development; logged loudly at start). `oauth`: bearer tokens on every request. */
  AUTH_MODE: z.enum(['off', 'oauth']).default('off'),
  /** The canonical URI of /mcp: the audience every token must be issued for (never taken from a request's Host). */
  MCP_RESOURCE_URL: unsetWhenEmpty(z.string().min(1)),
  /** Comma-separated issuer identifiers of the trusted authorization servers (the metadata's `authorization_servers`). */
  OAUTH_ISSUERS: z.string().default(''),
  /** Scopes every request must carry (space- or comma-separated); a token without them gets 403 `insufficient_scope`. */
  OAUTH_REQUIRED_SCOPES: z.string().default(''),
  /** What the metadata advertises as `scopes_supported` (default: the required scopes). */
  OAUTH_SCOPES_SUPPORTED: z.string().default(''),
  OAUTH_ALGORITHMS: z.string().default('RS256,PS256,ES256,EdDSA'),
  /**
   * The JWS `typ` header values a JWT access token may carry, comma-separated (compared without
   * case and without `application/`); `none` admits a token without one. Default: RFC 9068's
   * `at+jwt` only, so an ID token or another JWT an issuer signs is not taken for an access token.
   * For an issuer that does not set it: e.g. `at+jwt,jwt,none`.
   */
  OAUTH_TOKEN_TYPES: z.string().default('at+jwt'),
  /** Leeway for `nbf` and `iat` between this server's clock and the issuer's. */
  OAUTH_CLOCK_TOLERANCE_S: integer(0, 300).default(30),
  /** The issuer's JWKS, when its metadata should not be asked (one issuer only). */
  OAUTH_JWKS_URI: unsetWhenEmpty(z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')),
  /** How long a fetched JWKS is used before it is fetched again, and the least time between two fetches (a token with an unknown key id fetches at once after it). */
  OAUTH_JWKS_CACHE_MAX_AGE_MS: integer(0).default(600_000),
  OAUTH_JWKS_COOLDOWN_MS: integer(0).default(30_000),
  /** Each request to an authorization server (metadata, keys, introspection) gives up after this: the caller gets 503. */
  OAUTH_REQUEST_TIMEOUT_MS: integer(100, 60_000).default(5_000),
  /** The confidential client this server introspects opaque tokens as (RFC 7662); unset, only JWTs are accepted. */
  OAUTH_INTROSPECTION_CLIENT_ID: unsetWhenEmpty(z.string().min(1)),
  OAUTH_INTROSPECTION_CLIENT_SECRET: unsetWhenEmpty(z.string().min(1)),
  /** How long an introspected token's answer is reused (never past the token's expiry). */
  OAUTH_INTROSPECTION_CACHE_MS: integer(0).default(60_000),
  /** Introspection requests out at once at most; a new opaque token past it gets 503 with Retry-After. */
  OAUTH_INTROSPECTION_MAX_CONCURRENT: integer(1, 1024).default(32),
  /** Trust http:// issuers on other hosts than loopback (a private network in development only). */
  OAUTH_ALLOW_HTTP_ISSUERS: boolean('false'),

  // Exposure: an API that asks nobody (AUTH_MODE=off) listens on loopback only, unless told so
  /**
   * Let the API start with AUTH_MODE=off on a HOST that is not loopback (127.0.0.0/8, ::1,
   * localhost): every caller that reaches it is the one anonymous principal. Off, such a start
   * is refused; on, for a network only trusted callers reach (a container behind a loopback-only
   * published port, a private network), and the start logs a warning.
   */
  ALLOW_UNAUTHENTICATED: boolean('false'),

  // Traces (OpenTelemetry over OTLP/HTTP; off unless an endpoint is set: lib/tracing/tracing-config.ts)
  ...TRACING_ENV,

  // Postgres
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
  DATABASE_POOL_SIZE: integer(1).default(10),
  OUTCOME_POLL_MS: integer(50).default(1000),

  // Temporal
  TEMPORAL_ADDRESS: z.string().min(1).default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('mcp-exchanges'),
  /**
   * Exchange workflows a worker keeps in memory between rounds (about 0.3 MB each). One waiting on a
   * person needs nothing until its answer arrives; past this the least recently used is evicted and
   * replayed from its short history when it is next signalled.
   */
  WORKER_MAX_CACHED_WORKFLOWS: integer(0).default(1000),
  /** How long a stopping worker (SIGTERM) lets the rounds it runs finish and record before it cancels them. */
  WORKER_SHUTDOWN_GRACE_MS: integer(0, 600_000).default(10_000),
  /**
   * Temporal Worker Versioning (README "Rolling out a new version"). `off`: any worker on the task
   * queue runs any exchange. `pinned`: the worker is one version of a worker deployment
   * (WORKER_DEPLOYMENT_NAME, WORKER_BUILD_ID) and every exchange stays on the version that started
   * it, its rounds included, while new exchanges go to the deployment's current version.
   */
  WORKER_VERSIONING: z.enum(['off', 'pinned']).default('off'),
  /** The worker deployment the workers of this service belong to (no `.`; Temporal refuses one). */
  WORKER_DEPLOYMENT_NAME: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[^.\s]+$/, 'must not contain "." or spaces (Temporal refuses a deployment name with a dot)')
    .default('durable-mcp'),
  /** This worker's version within the deployment; unset, the version of the handlers it serves (`demo@0.1.0`, `acme-tools@1.2.0`). */
  WORKER_BUILD_ID: unsetWhenEmpty(z.string().trim().min(1).max(255)),
  /**
   * What a versioned worker does at start. `current`: once it polls, it makes its version the
   * deployment's current one, unless the current one was created after it (an old replica that
   * restarts does not roll the deployment back). `off`: the operator promotes it
   * (`temporal worker deployment set-current-version`).
   */
  WORKER_PROMOTE: z.enum(['off', 'current']).default('current'),
  /**
   * Comma-separated `kid:base64key` pairs of 32-byte keys that encrypt every payload the service
   * puts into Temporal (workflow input, signals, activity inputs and results, summaries and
   * details); the first encrypts, all decrypt. Its own ring, apart from REQUEST_STATE_KEYS.
   */
  PAYLOAD_CODEC_KEYS: keyRing(),
  /**
   * Whether a payload that is not encrypted is still read. Off (the default): every payload a
   * worker acts on must have been encrypted under one of the keys. On only while upgrading a
   * deployment that ran before payloads were encrypted (its running exchanges have histories in
   * clear); off again once no exchange from before the upgrade runs.
   */
  PAYLOAD_CODEC_ACCEPT_PLAINTEXT: boolean('false'),
  /**
   * Payloads encrypted before they were bound to their namespace, workflow and role (sealed by a
   * version before that, with no `encryption-bound-to`). `refuse` (the default): every payload a
   * worker acts on must be bound to where it is read, so one copied from another exchange's history
   * is refused. `accept`: read them too, only while exchanges started before the upgrade run (one
   * copied from any history into another exchange is accepted meanwhile). `write`: also write
   * them, the first step of a rollout while workers of the earlier version still run exchanges
   * (they cannot read a bound payload); then `accept`, then `refuse`.
   */
  PAYLOAD_CODEC_UNBOUND: z.enum(UNBOUND_PAYLOADS).default('refuse'),

  // Temporal connection security: TLS, mutual TLS, API key (lib/temporal-security-config.ts)
  ...TEMPORAL_SECURITY_ENV,

  // Exchanges
  ROUND_TIMEOUT_MS: integer(1).default(600000),
  MAX_ROUNDS: integer(1).default(8),
  /**
   * A handler execution that runs longer ends its exchange with an error: `LOCAL_HANDLER_TIMEOUT_MS`
   * for rounds that run as local activities (the default; under the local activity's 1 minute),
   * `HANDLER_TIMEOUT_MS` for handlers that declare `roundActivity: 'regular'` (under 3 minutes).
   */
  LOCAL_HANDLER_TIMEOUT_MS: integer(1, 50_000).default(5_000),
  HANDLER_TIMEOUT_MS: integer(1, 170_000).default(90_000),
  /** Retried attempts of one round that may start its handler (a handler that kills its worker) before the exchange ends. */
  MAX_HANDLER_ATTEMPTS: integer(1, 100).default(5),
  REQUEST_STATE_TTL_MS: integer(1).default(900000),
  /** Comma-separated `kid:base64key` pairs of 32-byte keys; the first seals, all open. */
  REQUEST_STATE_KEYS: keyRing(),
  /**
   * The handler set to serve: a built-in one by name (`demo`, `conformance`, `bench`), or a module
   * that exports one: a path (absolute, or relative to the working directory; `.js`, or `.ts` when
   * the process runs under tsx) or a package name resolved from the working directory. Set, it
   * wins over HANDLER_SET.
   */
  HANDLERS: unsetWhenEmpty(z.string().trim().min(1)),
  /** The older name, built-in sets only: read when HANDLERS is unset. */
  HANDLER_SET: z.enum(BUILT_IN_HANDLER_SETS).default('demo'),

  // Tasks (the Tasks extension, SEP-2663)
  /**
   * How long a task and its records live, from its creation (its `ttlMs`): a task still running
   * then ends, and from then on its id is unknown. The server sets it; a client cannot lengthen it.
   */
  TASK_TTL_MS: integer(1000, 2_147_483_647).default(3_600_000),
  /** The poll interval a task's client is told (`pollIntervalMs`). */
  TASK_POLL_INTERVAL_MS: integer(10, 3_600_000).default(1000),

  // Budgets: every input and store a client can grow (see the README's "Limits")
  /** Deepest nesting of arrays and objects in one JSON-RPC message. */
  MAX_JSON_DEPTH: integer(4, 1000).default(64),
  /** Longest JSON-RPC request id (a string id is a key of the service's records). */
  MAX_REQUEST_ID_LENGTH: integer(16, 1024).default(256),
  /** Longest tool or prompt name, or resource URI, in UTF-8 bytes (Temporal keeps it in a 2 KB search attribute). */
  MAX_TARGET_LENGTH: integer(16, 2000).default(1024),
  /**
   * Serialized size of one round's input (arguments + answers + capabilities). A round's activity
   * carries the first leg's input and the latest answers, so twice this stays under Temporal's 2 MB.
   */
  MAX_ROUND_INPUT_BYTES: integer(1024, 917_504).default(524_288),
  /** How many times one handshake-era answer may be signalled again (a repeat the workflow said it lacked) before repeats are dropped. */
  MAX_REPEATED_ANSWERS: integer(0, 100).default(3),
  /** Events kept in one handshake-era stream; the oldest are dropped past this (Last-Event-ID before them replays from the oldest kept). */
  LEGACY_STREAM_MAX_EVENTS: integer(16).default(1000),
  /** Rows read per page when a stream is replayed after Last-Event-ID. */
  LEGACY_REPLAY_PAGE_SIZE: integer(1, 10_000).default(100),
  /** Bytes an SSE consumer may leave unread before its stream is closed. */
  SSE_MAX_BUFFERED_BYTES: integer(1024).default(1_048_576),
  /** Open SSE streams one API process serves, and one session may hold. */
  MAX_OPEN_STREAMS: integer(1).default(1000),
  MAX_STREAMS_PER_SESSION: integer(1).default(8),
  /** Handshake-era sessions open at once, across the deployment. */
  MAX_OPEN_SESSIONS: integer(1).default(10_000),
  /** Running exchanges, across the deployment and per handshake-era session. */
  MAX_RUNNING_EXCHANGES: integer(1).default(10_000),
  MAX_RUNNING_EXCHANGES_PER_SESSION: integer(1).default(32),
  /** Running exchanges and open handshake-era sessions one authenticated principal may hold (not applied with AUTH_MODE=off). */
  MAX_RUNNING_EXCHANGES_PER_PRINCIPAL: integer(1).default(1000),
  MAX_OPEN_SESSIONS_PER_PRINCIPAL: integer(1).default(100),
  /** Legs one API process holds open at once (waiting for an outcome). */
  MAX_INFLIGHT_LEGS: integer(1).default(1000),
  /** Seconds a client refused for capacity is told to wait (Retry-After). */
  CAPACITY_RETRY_AFTER_S: integer(1, 3600).default(5),

  // Retention of the service's records (the worker sweeps them)
  RETENTION_DAYS: integer(1).default(7),
  RETENTION_SWEEP_MS: integer(1000).default(3_600_000),
});

export type Env = z.input<typeof EnvSchema>;

/**
 * Every variable the service reads, with its default as the environment would spell it (none
 * when the variable is required): what a deployment file must set, checked by its tests.
 */
export const CONFIG_VARIABLES: ReadonlyArray<{ name: string; default?: string }> = Object.entries(EnvSchema.shape).map(
  ([name, schema]) => {
    const parsed = (schema as z.ZodType).safeParse(undefined);
    // An optional variable (unset when empty) has the empty string as its default.
    return parsed.success ? { name, default: parsed.data === undefined ? '' : String(parsed.data) } : { name };
  },
);

export interface Config {
  readonly env: string;
  readonly logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  readonly http: {
    host: string;
    port: number;
    waitMs: number;
    maxBodyBytes: number;
    allowedOrigins: string[];
    /** ALLOWED_HOSTS, lower case: the Host names /mcp, /sse and /messages answer besides the implied ones. */
    allowedHosts: string[];
    readyCheckTimeoutMs: number;
    /** API_DRAIN_GRACE_MS: how long a stopping API lets requests and streams end by themselves. */
    drainGraceMs: number;
    /** ALLOW_UNAUTHENTICATED: AUTH_MODE=off may serve a HOST that is not loopback (checkApiExposure). */
    allowUnauthenticated: boolean;
  };
  /** Who may call /mcp, /sse and /messages: nobody is asked (off), or an OAuth 2.1 bearer token. */
  readonly auth: AuthConfig;
  /** The admin API (off without a token) and the Temporal Web UI it links to. */
  readonly admin: { token?: string; temporalUiUrl?: string };
  /**
   * The codec endpoint (/codec, behind the admin token): the browser origins it answers (the
   * Temporal Web UI's, from TEMPORAL_UI_URL, and CODEC_ALLOWED_ORIGINS), its body budget, and how
   * long a browser's sign-in lasts.
   */
  readonly codecEndpoint: {
    allowedOrigins: string[];
    maxBodyBytes: number;
    sessionTtlMs: number;
    /** POST /codec/encode's own bearer token; encoding is off without one. */
    encodeToken?: string;
  };
  /** Trace export (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); undefined when off. */
  readonly tracing?: TracingConfig;
  /** The worker's metrics listener; undefined when WORKER_METRICS_PORT is 0. */
  readonly workerMetrics?: { host: string; port: number };
  /** METRICS_TOKEN: what GET /metrics of both processes asks for, when set. */
  readonly metricsToken?: string;
  readonly database: { url: string; poolSize: number; outcomePollMs: number };
  readonly temporal: {
    address: string;
    namespace: string;
    taskQueue: string;
    maxCachedWorkflows: number;
    /** WORKER_SHUTDOWN_GRACE_MS: how long a stopping worker lets its rounds finish. */
    workerShutdownGraceMs: number;
    /** Worker Versioning (WORKER_VERSIONING=pinned); undefined when off. */
    versioning?: WorkerVersioningConfig;
    /** TLS, mutual TLS, API key and extra metadata of every Temporal connection (lib/temporal-connection.ts). */
    security: TemporalSecurityConfig;
  };
  readonly exchange: {
    roundTimeoutMs: number;
    maxRounds: number;
    handlerTimeoutMs: number;
    localHandlerTimeoutMs: number;
    maxHandlerAttempts: number;
    /** Every task's TTL, and the poll interval its client is told (TASK_TTL_MS, TASK_POLL_INTERVAL_MS). */
    taskTtlMs: number;
    taskPollIntervalMs: number;
  };
  readonly requestState: { ttlMs: number; keys: ReadonlyArray<KeyRingEntry> };
  /** The payload codec: its key ring (the first encrypts) and whether plaintext is still read. */
  readonly payloadCodec: PayloadCodecConfig;
  /**
   * What names the handler set to serve (HANDLERS, else HANDLER_SET): a built-in set's name, a
   * module's path or a package name. services/stack/handler-module.ts loads it.
   */
  readonly handlers: string;
  readonly retention: { retentionMs: number; sweepEveryMs: number };
  readonly limits: Limits;
}

/**
 * A versioned worker's place in its worker deployment: exchanges it starts are pinned to its
 * version (`deploymentName`, `buildId`; without one, the handler version it serves).
 */
export interface WorkerVersioningConfig {
  deploymentName: string;
  buildId?: string;
  promote: 'off' | 'current';
}

/** The budgets, one per input or store a client can grow; each is answered with a clear error. */
export interface Limits {
  maxJsonDepth: number;
  maxRequestIdLength: number;
  maxTargetLength: number;
  maxRoundInputBytes: number;
  maxRepeatedAnswers: number;
  legacyStreamMaxEvents: number;
  legacyReplayPageSize: number;
  sseMaxBufferedBytes: number;
  maxOpenStreams: number;
  maxStreamsPerSession: number;
  maxOpenSessions: number;
  maxRunningExchanges: number;
  maxRunningExchangesPerSession: number;
  maxRunningExchangesPerPrincipal: number;
  maxOpenSessionsPerPrincipal: number;
  maxInflightLegs: number;
  capacityRetryAfterS: number;
}

export interface PayloadCodecConfig {
  keys: ReadonlyArray<KeyRingEntry>;
  acceptPlaintext: boolean;
  /** Payloads encrypted before they were bound (PAYLOAD_CODEC_UNBOUND); unset, `refuse`. */
  unbound?: UnboundPayloads;
  /**
   * The namespace the codec serves (TEMPORAL_NAMESPACE): what a payload is bound to, and checked
   * against, when the SDK names no context (lib/payload-codec/payload-codec.ts).
   */
  namespace: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Parses a key ring variable (`REQUEST_STATE_KEYS`, `PAYLOAD_CODEC_KEYS`): `kid:base64key` pairs,
 * first key first; every key must decode to exactly 32 bytes (AES-256) and every kid be unique.
 */
export function parseKeyRing(variable: string, ring: string): KeyRingEntry[] {
  const keys = ring.split(',').map((entry) => {
    const [kid, encoded] = entry.trim().split(':') as [string, string];
    const key = Buffer.from(encoded, 'base64');
    if (key.length !== 32) {
      throw new ConfigError(`${variable}: key "${kid}" must decode to 32 bytes, got ${key.length}`);
    }
    return { kid, key };
  });
  const kids = new Set(keys.map((k) => k.kid));
  if (kids.size !== keys.length) throw new ConfigError(`${variable}: key ids must be unique`);
  return keys;
}

/** Validates an environment-shaped object and returns a frozen, grouped config. */
export function parseConfig(source: Record<string, string | undefined>): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const variable = issue.path.join('.');
      const got = source[variable] === undefined ? 'missing' : 'malformed';
      return `${variable} is ${got}: ${issue.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const env = parsed.data;
  if (env.CODEC_ENCODE_TOKEN !== undefined && env.CODEC_ENCODE_TOKEN === env.ADMIN_TOKEN)
    throw new ConfigError(
      'Invalid configuration:\n  CODEC_ENCODE_TOKEN is malformed: must differ from ADMIN_TOKEN (it is a credential of its own)',
    );
  let auth: AuthConfig;
  try {
    auth = parseAuthConfig(env);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
  // Temporal connection security: the files are read and checked here, once.
  let temporalSecurity: TemporalSecurityConfig;
  try {
    temporalSecurity = parseTemporalSecurity(env, source);
  } catch (error) {
    if (!(error instanceof TemporalSecurityError)) throw error;
    throw new ConfigError(`Invalid configuration:\n  ${error.message}`);
  }
  const tracing = parseTracingConfig(env);
  return Object.freeze({
    env: env.NODE_ENV,
    logLevel: env.LOG_LEVEL,
    http: {
      host: env.HOST,
      port: env.PORT,
      waitMs: env.HTTP_WAIT_MS,
      maxBodyBytes: env.MAX_BODY_BYTES,
      allowedOrigins: env.ALLOWED_ORIGINS.split(',')
        .map((o) => o.trim())
        .filter(Boolean),
      allowedHosts: env.ALLOWED_HOSTS.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
      readyCheckTimeoutMs: env.READY_CHECK_TIMEOUT_MS,
      drainGraceMs: env.API_DRAIN_GRACE_MS,
      allowUnauthenticated: env.ALLOW_UNAUTHENTICATED,
    },
    auth,
    admin: {
      ...(env.ADMIN_TOKEN !== undefined ? { token: env.ADMIN_TOKEN } : {}),
      ...(env.TEMPORAL_UI_URL !== undefined ? { temporalUiUrl: env.TEMPORAL_UI_URL } : {}),
    },
    codecEndpoint: {
      allowedOrigins: [
        ...new Set([
          ...(env.TEMPORAL_UI_URL !== undefined ? [new URL(env.TEMPORAL_UI_URL).origin] : []),
          ...env.CODEC_ALLOWED_ORIGINS,
        ]),
      ],
      maxBodyBytes: env.CODEC_MAX_BODY_BYTES,
      sessionTtlMs: env.CODEC_SESSION_TTL_MS,
      ...(env.CODEC_ENCODE_TOKEN !== undefined ? { encodeToken: env.CODEC_ENCODE_TOKEN } : {}),
    },
    ...(tracing ? { tracing } : {}),
    ...(env.WORKER_METRICS_PORT > 0
      ? { workerMetrics: { host: env.WORKER_METRICS_HOST, port: env.WORKER_METRICS_PORT } }
      : {}),
    ...(env.METRICS_TOKEN !== undefined ? { metricsToken: env.METRICS_TOKEN } : {}),
    database: { url: env.DATABASE_URL, poolSize: env.DATABASE_POOL_SIZE, outcomePollMs: env.OUTCOME_POLL_MS },
    temporal: {
      address: env.TEMPORAL_ADDRESS,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      maxCachedWorkflows: env.WORKER_MAX_CACHED_WORKFLOWS,
      workerShutdownGraceMs: env.WORKER_SHUTDOWN_GRACE_MS,
      ...(env.WORKER_VERSIONING === 'pinned'
        ? {
            versioning: {
              deploymentName: env.WORKER_DEPLOYMENT_NAME,
              ...(env.WORKER_BUILD_ID !== undefined ? { buildId: env.WORKER_BUILD_ID } : {}),
              promote: env.WORKER_PROMOTE,
            },
          }
        : {}),
      security: temporalSecurity,
    },
    exchange: {
      roundTimeoutMs: env.ROUND_TIMEOUT_MS,
      maxRounds: env.MAX_ROUNDS,
      handlerTimeoutMs: env.HANDLER_TIMEOUT_MS,
      localHandlerTimeoutMs: env.LOCAL_HANDLER_TIMEOUT_MS,
      maxHandlerAttempts: env.MAX_HANDLER_ATTEMPTS,
      taskTtlMs: env.TASK_TTL_MS,
      taskPollIntervalMs: env.TASK_POLL_INTERVAL_MS,
    },
    requestState: { ttlMs: env.REQUEST_STATE_TTL_MS, keys: parseKeyRing('REQUEST_STATE_KEYS', env.REQUEST_STATE_KEYS) },
    payloadCodec: {
      keys: parseKeyRing('PAYLOAD_CODEC_KEYS', env.PAYLOAD_CODEC_KEYS),
      acceptPlaintext: env.PAYLOAD_CODEC_ACCEPT_PLAINTEXT,
      unbound: env.PAYLOAD_CODEC_UNBOUND,
      namespace: env.TEMPORAL_NAMESPACE,
    },
    handlers: env.HANDLERS ?? env.HANDLER_SET,
    retention: { retentionMs: env.RETENTION_DAYS * 86_400_000, sweepEveryMs: env.RETENTION_SWEEP_MS },
    limits: Object.freeze({
      maxJsonDepth: env.MAX_JSON_DEPTH,
      maxRequestIdLength: env.MAX_REQUEST_ID_LENGTH,
      maxTargetLength: env.MAX_TARGET_LENGTH,
      maxRoundInputBytes: env.MAX_ROUND_INPUT_BYTES,
      maxRepeatedAnswers: env.MAX_REPEATED_ANSWERS,
      legacyStreamMaxEvents: env.LEGACY_STREAM_MAX_EVENTS,
      legacyReplayPageSize: env.LEGACY_REPLAY_PAGE_SIZE,
      sseMaxBufferedBytes: env.SSE_MAX_BUFFERED_BYTES,
      maxOpenStreams: env.MAX_OPEN_STREAMS,
      maxStreamsPerSession: env.MAX_STREAMS_PER_SESSION,
      maxOpenSessions: env.MAX_OPEN_SESSIONS,
      maxRunningExchanges: env.MAX_RUNNING_EXCHANGES,
      maxRunningExchangesPerSession: env.MAX_RUNNING_EXCHANGES_PER_SESSION,
      maxRunningExchangesPerPrincipal: env.MAX_RUNNING_EXCHANGES_PER_PRINCIPAL,
      maxOpenSessionsPerPrincipal: env.MAX_OPEN_SESSIONS_PER_PRINCIPAL,
      maxInflightLegs: env.MAX_INFLIGHT_LEGS,
      capacityRetryAfterS: env.CAPACITY_RETRY_AFTER_S,
    }),
  });
}

// ------------------------------------------------------------------------------------------------
// Exposure: an unauthenticated API listens on loopback only, unless ALLOW_UNAUTHENTICATED says so
// ------------------------------------------------------------------------------------------------

/** Whether `host` (a HOST value) is a loopback address: 127.0.0.0/8, ::1 (also IPv4-mapped), localhost. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost') return true;
  if (isIPv4(name)) return name.split('.')[0] === '127';
  if (!isIPv6(name)) return false;
  // The URL parser writes an IPv6 address in its one canonical form (::1, ::ffff:7f00:1).
  const canonical = new URL(`http://[${name}]`).hostname.slice(1, -1);
  return canonical === '::1' || /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(canonical);
}

/**
 * Refuses an API that would let every caller in (AUTH_MODE=off) on an address others can reach
 * (a HOST that is not loopback), unless ALLOW_UNAUTHENTICATED=true says that is meant. The API
 * calls it before it opens anything; `loadConfigOrExit('api' | 'all')` calls it at start.
 */
export function checkApiExposure(config: Pick<Config, 'http' | 'auth'>): void {
  if (config.auth.mode !== 'off' || config.http.allowUnauthenticated || isLoopbackHost(config.http.host)) return;
  throw new ConfigError(
    `Invalid configuration:\n  AUTH_MODE=off on HOST=${config.http.host}, which is not a loopback address: ` +
      'every caller that reaches it would be let in as the one anonymous principal. Set AUTH_MODE=oauth ' +
      '(README "Authorization"), listen on loopback (HOST=127.0.0.1), or set ALLOW_UNAUTHENTICATED=true ' +
      'if only trusted callers can reach HOST (a container published on 127.0.0.1, a private network)',
  );
}

/**
 * Reads the process environment; on a bad value prints the reason and exits. A process that
 * serves the API (`role` `api` or `all`) also has its exposure checked (checkApiExposure).
 */
export function loadConfigOrExit(role?: 'api' | 'worker' | 'all'): Config {
  try {
    const config = parseConfig(process.env);
    if (role === 'api' || role === 'all') checkApiExposure(config);
    return config;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(78); // EX_CONFIG
  }
}
