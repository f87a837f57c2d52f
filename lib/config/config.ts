/**
 * Service configuration, read once from the environment and validated at start-up: the schema
 * (schema.ts, every variable declared once with its doc) parsed, then grouped into the shape the
 * processes use. The `Config` type is what this mapping returns, so it cannot drift from it.
 *
 * A missing or malformed variable stops the process with a message that names it. Tests and the
 * dev launcher build a config from a plain object with `parseConfig` instead of editing
 * `process.env`.
 */
import { parseAnswerDevSignInConfig, type AnswerDevSignInConfig } from '../auth/answer-dev-sign-in-config';
import { parseAnswerSignInConfig, type AnswerSignInConfig } from '../auth/answer-sign-in-config';
import { parseAuthConfig, type AuthConfig } from '../auth/auth-config';
import { oneIdentityProblem } from '../auth/one-identity';
import { parseTemporalSecurity, TemporalSecurityError, type TemporalSecurityConfig } from './temporal-security';
import type { PayloadCodecConfig } from '../payload-codec/payload-codec';
import { parseTracingConfig } from './tracing';
import { ConfigError } from './errors';
import { MISSING_HINT, variableProblem } from './variable-problem';
import type { z } from 'zod';
import { parseKeyRing } from './key-ring';
import type { KeyRingEntry } from '../state/sealer';
import { runsWorker, servesApi, type ProcessRole } from './process-role';
import { evidenceSigningKeysOf } from '../evidence/signing-keys';
import { EnvSchema } from './schema';
import { parseTrustProxy, type TrustProxy } from './variables/trust-proxy';
import { parseWebhookConfig, type WebhookConfig } from '../webhooks/webhook-config';
import { upstreamsOf } from './upstreams';
import { quotaRulesOf } from './quotas';
import { codecTrustsLoopback } from './codec-trust-loopback';

/**
 * Validates an environment-shaped object and returns a frozen, grouped config. `role` says which
 * process reads it: a secret only the other process uses (process-role.ts) is not required of it,
 * so a deployment can leave it out there (`all`, the default, requires everything).
 */
export function parseConfig(source: Record<string, string | undefined>, role: ProcessRole = 'all') {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const shape = EnvSchema.shape as Record<string, z.ZodType | undefined>;
    const problems = parsed.error.issues.map((issue) => {
      const variable = issue.path.join('.');
      return variableProblem(variable, source[variable], issue.message, shape[variable]);
    });
    const missing = parsed.error.issues.some((issue) => source[issue.path.join('.')] === undefined);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}${missing ? `\n${MISSING_HINT}` : ''}`);
  }
  const env = parsed.data;
  if (env.CODEC_ENCODE_TOKEN !== undefined && env.CODEC_ENCODE_TOKEN === env.ADMIN_TOKEN)
    throw new ConfigError(
      'Invalid configuration:\n  CODEC_ENCODE_TOKEN is malformed: must differ from ADMIN_TOKEN (it is a credential of its own)',
    );
  let codecTrustLoopback: boolean;
  try {
    codecTrustLoopback = codecTrustsLoopback(env);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
  let auth: AuthConfig;
  try {
    // The worker verifies no caller: it is not given the introspection client's secret.
    auth = parseAuthConfig(
      servesApi(role)
        ? env
        : { ...env, OAUTH_INTROSPECTION_CLIENT_ID: undefined, OAUTH_INTROSPECTION_CLIENT_SECRET: undefined },
    );
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
  let answerSignIn: AnswerSignInConfig | undefined;
  let answerDevSignIn: AnswerDevSignInConfig | undefined;
  try {
    // The development sign-in refuses every ANSWER_OIDC_* variable itself, so the two never both hold.
    answerDevSignIn = parseAnswerDevSignInConfig(env);
    if (answerDevSignIn === undefined) answerSignIn = parseAnswerSignInConfig(env);
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
  if (env.FAIRNESS_KEY === 'tenant' && env.TENANT_CLAIM === undefined)
    throw new ConfigError(
      "Invalid configuration:\n  TENANT_CLAIM is missing: required with FAIRNESS_KEY=tenant (the access-token claim that names a caller's tenant)",
    );
  const oneIdentity = oneIdentityProblem(auth, answerSignIn);
  if (oneIdentity !== undefined) throw new ConfigError(`Invalid configuration:\n  ${oneIdentity}`);
  const pageOrigin = (answerSignIn ?? answerDevSignIn)?.publicOrigin;
  const requestStateKeys = parseKeyRing('REQUEST_STATE_KEYS', env.REQUEST_STATE_KEYS);
  const payloadCodecKeys = parseKeyRing('PAYLOAD_CODEC_KEYS', env.PAYLOAD_CODEC_KEYS);
  const answerSessionKeys = answerSessionKeysOf(env.ANSWER_SESSION_KEYS, [...requestStateKeys, ...payloadCodecKeys]);
  if (pageOrigin !== undefined && answerSessionKeys === undefined && servesApi(role))
    throw new ConfigError(
      `Invalid configuration:\n  ANSWER_SESSION_KEYS is missing: required with ${answerSignIn ? 'ANSWER_OIDC_ISSUER' : 'ANSWER_DEV_SIGN_IN'} (the answer page's own key ring, held by the API alone: k1: and the output of openssl rand -base64 32)`,
    );
  // Temporal connection security: the files are read and checked here, once.
  let temporalSecurity: TemporalSecurityConfig;
  try {
    temporalSecurity = parseTemporalSecurity(env, source);
  } catch (error) {
    if (!(error instanceof TemporalSecurityError)) throw error;
    throw new ConfigError(`Invalid configuration:\n  ${error.message}`);
  }
  const tracing = parseTracingConfig(env);
  let webhooks: WebhookConfig;
  try {
    webhooks = parseWebhookConfig(env, { secretsRequired: runsWorker(role) });
  } catch (error) {
    throw new ConfigError(`Invalid configuration:\n  ${(error as Error).message}`);
  }
  return Object.freeze({
    env: env.NODE_ENV,
    logLevel: env.LOG_LEVEL,
    http: {
      host: env.HOST,
      port: env.PORT,
      waitMs: env.HTTP_WAIT_MS,
      questionHoldMs: env.QUESTION_HOLD_MS,
      questionProgressEveryMs: env.QUESTION_PROGRESS_EVERY_MS,
      pendingResultAtLeg: env.PENDING_RESULT_AT_LEG,
      reattachIdenticalCallsMs: env.REATTACH_IDENTICAL_CALLS_MS,
      legacyPendingAfterMs: env.LEGACY_PENDING_AFTER_MS,
      maxBodyBytes: env.MAX_BODY_BYTES,
      allowedOrigins: env.ALLOWED_ORIGINS,
      /** The Host names /mcp, /sse and /messages answer besides the implied ones, lower case. */
      allowedHosts: env.ALLOWED_HOSTS,
      readyCheckTimeoutMs: env.READY_CHECK_TIMEOUT_MS,
      drainGraceMs: env.API_DRAIN_GRACE_MS,
      allowUnauthenticated: env.ALLOW_UNAUTHENTICATED,
      /** TRUST_PROXY, as Express's `trust proxy` takes it (the schema has checked it parses). */
      trustProxy: parseTrustProxy(env.TRUST_PROXY) as TrustProxy,
    },
    auth,
    /**
     * Answering questions: the answer page's OpenID Connect sign-in (ANSWER_OIDC_ISSUER) or its
     * development one (ANSWER_DEV_SIGN_IN), and the origin its links and forms are under; all
     * absent when neither is set (the page is off).
     */
    answers: {
      ...(answerSignIn ? { signIn: answerSignIn } : {}),
      ...(answerDevSignIn ? { devSignIn: answerDevSignIn } : {}),
      ...(pageOrigin !== undefined ? { publicOrigin: pageOrigin } : {}),
      /**
       * What seals the page's cookies (ANSWER_SESSION_KEYS, the API's alone) and the epoch they
       * are bound to (ANSWER_SESSION_EPOCH: changed, every one issued before is refused). Present
       * whenever the page is on in a process that serves the API.
       */
      ...(pageOrigin !== undefined && answerSessionKeys !== undefined
        ? { sessions: { keys: answerSessionKeys, epoch: env.ANSWER_SESSION_EPOCH ?? '' } }
        : {}),
    },
    admin: {
      ...(env.ADMIN_TOKEN !== undefined ? { token: env.ADMIN_TOKEN } : {}),
      ...(env.TEMPORAL_UI_URL !== undefined ? { temporalUiUrl: env.TEMPORAL_UI_URL } : {}),
      /** Wrong tokens one client address may send at /admin and /codec within a window before it gets 429. */
      tokenGuesses: { maxFailures: env.ADMIN_TOKEN_MAX_FAILURES, windowMs: env.ADMIN_TOKEN_FAILURE_WINDOW_MS },
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
      /** CODEC_SESSION_EPOCH: changed, every sign-in cookie issued before is refused. */
      ...(env.CODEC_SESSION_EPOCH !== undefined ? { sessionEpoch: env.CODEC_SESSION_EPOCH } : {}),
      ...(env.CODEC_ENCODE_TOKEN !== undefined ? { encodeToken: env.CODEC_ENCODE_TOKEN } : {}),
      /** CODEC_TRUST_LOOPBACK: a development stack's loopback connections decode without a credential. */
      trustLoopback: codecTrustLoopback,
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
      /** FAIRNESS_KEY: whose share of the workers an exchange's tasks take (lib/exchange/fairness.ts). */
      fairnessKey: env.FAIRNESS_KEY,
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
      maxQuestionWaitMs: env.MAX_QUESTION_WAIT_MS,
      questionResignalAfterMs: env.QUESTION_RESIGNAL_AFTER_MS,
      handlerTimeoutMs: env.HANDLER_TIMEOUT_MS,
      localHandlerTimeoutMs: env.LOCAL_HANDLER_TIMEOUT_MS,
      maxHandlerAttempts: env.MAX_HANDLER_ATTEMPTS,
      taskTtlMs: env.TASK_TTL_MS,
      taskPollIntervalMs: env.TASK_POLL_INTERVAL_MS,
    },
    requestState: { ttlMs: env.REQUEST_STATE_TTL_MS, keys: requestStateKeys },
    payloadCodec: {
      keys: payloadCodecKeys,
      acceptPlaintext: env.PAYLOAD_CODEC_ACCEPT_PLAINTEXT,
      unbound: env.PAYLOAD_CODEC_UNBOUND,
      namespaceOnly: env.PAYLOAD_CODEC_NAMESPACE_ONLY,
      namespace: env.TEMPORAL_NAMESPACE,
    } satisfies PayloadCodecConfig,
    /** EVIDENCE_SIGNING_KEYS, as Ed25519 keys (the first signs); the API refuses to start without them (evidenceKeysOf). */
    evidence: {
      ...(env.EVIDENCE_SIGNING_KEYS !== undefined
        ? { signingKeys: evidenceSigningKeysOf(parseKeyRing('EVIDENCE_SIGNING_KEYS', env.EVIDENCE_SIGNING_KEYS)) }
        : {}),
    },
    handlers: env.HANDLERS ?? env.HANDLER_SET,
    upstreams: upstreamsOf(env, source),
    /** Read again while the process runs, for its policies (lib/gateway/policy-reload.ts). */
    upstreamsFile: env.UPSTREAMS_FILE,
    upstreamsReloadMs: env.UPSTREAMS_RELOAD_MS,
    upstreamsStartWaitMs: env.UPSTREAMS_START_WAIT_MS,
    webhooks,
    /**
     * The quota rules (QUOTA_CALLS_PER_*, QUOTAS_FILE), checked by the API before any exchange starts;
     * none: no quotas. A worker does not read them (nor needs the file).
     */
    quotas: servesApi(role) ? quotaRulesOf(env) : [],
    stuckWorkflows: {
      afterMs: env.STUCK_WORKFLOW_AFTER_MS,
      everyMs: env.STUCK_WORKFLOW_SWEEP_MS,
      batch: env.STUCK_WORKFLOW_SWEEP_BATCH,
    },
    retention: { retentionMs: env.RETENTION_DAYS * 86_400_000, sweepEveryMs: env.RETENTION_SWEEP_MS },
    limits: Object.freeze({
      maxJsonDepth: env.MAX_JSON_DEPTH,
      maxRequestIdLength: env.MAX_REQUEST_ID_LENGTH,
      maxTargetLength: env.MAX_TARGET_LENGTH,
      maxRoundInputBytes: env.MAX_ROUND_INPUT_BYTES,
      maxRepeatedAnswers: env.MAX_REPEATED_ANSWERS,
      maxAnswerBodyBytes: env.MAX_ANSWER_BODY_BYTES,
      maxRecordedRefusals: env.MAX_RECORDED_REFUSALS,
      maxListedQuestions: env.MAX_LISTED_QUESTIONS,
      maxWaitingQuestionsPerPrincipal: env.MAX_WAITING_QUESTIONS_PER_PRINCIPAL,
      legacyStreamMaxEvents: env.LEGACY_STREAM_MAX_EVENTS,
      legacyReplayPageSize: env.LEGACY_REPLAY_PAGE_SIZE,
      sseMaxBufferedBytes: env.SSE_MAX_BUFFERED_BYTES,
      maxOpenStreams: env.MAX_OPEN_STREAMS,
      maxStreamsPerSession: env.MAX_STREAMS_PER_SESSION,
      maxOpenSubscriptions: env.MAX_OPEN_SUBSCRIPTIONS,
      maxOpenSubscriptionsPerPrincipal: env.MAX_OPEN_SUBSCRIPTIONS_PER_PRINCIPAL,
      maxOpenSessions: env.MAX_OPEN_SESSIONS,
      maxRunningExchanges: env.MAX_RUNNING_EXCHANGES,
      maxRunningExchangesPerSession: env.MAX_RUNNING_EXCHANGES_PER_SESSION,
      maxRunningExchangesPerPrincipal: env.MAX_RUNNING_EXCHANGES_PER_PRINCIPAL,
      maxOpenSessionsPerPrincipal: env.MAX_OPEN_SESSIONS_PER_PRINCIPAL,
      maxInflightLegs: env.MAX_INFLIGHT_LEGS,
      maxInflightLegsPerPrincipal: env.MAX_INFLIGHT_LEGS_PER_PRINCIPAL,
      servedAsksMaxBytes: env.SERVED_ASKS_MAX_BYTES,
      capacityRetryAfterS: env.CAPACITY_RETRY_AFTER_S,
    }),
  });
}

/**
 * ANSWER_SESSION_KEYS parsed, when set. None of its keys may be a key of the rings the worker
 * holds (`others`): a cookie sealed with one could then be made by handler code.
 */
function answerSessionKeysOf(ring: string | undefined, others: KeyRingEntry[]): KeyRingEntry[] | undefined {
  if (ring === undefined) return undefined;
  const keys = parseKeyRing('ANSWER_SESSION_KEYS', ring);
  if (keys.some(({ key }) => others.some((other) => other.key.equals(key))))
    throw new ConfigError(
      'Invalid configuration:\n  ANSWER_SESSION_KEYS is malformed: a key of it is also in REQUEST_STATE_KEYS or PAYLOAD_CODEC_KEYS, which the worker holds; give the answer page keys of its own',
    );
  return keys;
}

export type Config = ReturnType<typeof parseConfig>;

/** The evidence signing keys the API needs (the worker does not): a start without them stops, naming the variable. */
export function evidenceKeysOf(config: Pick<Config, 'evidence'>) {
  const keys = config.evidence.signingKeys;
  if (!keys || keys.length === 0)
    throw new ConfigError(
      'Invalid configuration:\n  EVIDENCE_SIGNING_KEYS is missing: the API signs an evidence entry for every decision on a question (docs/security.md "Evidence"); generate a key with: echo "ev1:$(openssl rand -base64 32)"',
    );
  return keys;
}
/** The budgets, one per input or store a client can grow; each is answered with a clear error. */
export type Limits = Config['limits'];
/**
 * A versioned worker's place in its worker deployment: exchanges it starts are pinned to its
 * version (`deploymentName`, `buildId`; without one, the handler version it serves).
 */
export type WorkerVersioningConfig = NonNullable<Config['temporal']['versioning']>;
/** Wrong tokens one client address may send within a window before it is refused (429) until the window ends. */
export type TokenGuessLimit = Config['admin']['tokenGuesses'];
