/**
 * Builds the express app from its dependencies, with no side effects, so tests mount it as is.
 */
import { AsyncResource } from 'node:async_hooks';
import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import type { Registry } from 'prom-client';
import type { AuthConfig } from '../../../lib/auth/auth-config';
import type { TrustProxy } from '../../../lib/config';
import type { Logger } from '../../../lib/log';
import {
  bodyTooLarge,
  bodyUnreadable,
  bodyUnsupported,
  internalError,
  serverDraining,
} from '../../../lib/protocol/error-catalog';
import type { RpcError } from '../../../lib/protocol/rpc-error';
import { bearerGate, GUARDED_PATHS } from './auth/bearer-gate';
import { ANSWER_API_PATH } from './answers/answer-endpoint';
import { answerApiGate } from './answers/answer-api-gate';
import { knownCallerOf } from './auth/caller';
import { metadataRoutes } from './auth/metadata-routes';
import { replyWithError } from './http/error-reply';
import type { Shutdown } from './http/shutdown';
import type { LegacyEndpoint } from './legacy/legacy-endpoint';
import type { ModernDispatch } from './modern/modern-methods';
import { codecEndpointOff } from './codec/codec-router';
import { hostGuard } from './http/host-guard';
import { originGuard } from './http/origin-guard';
import { requestIds } from './http/request-id';
import { healthRouter, type HealthRoutesOptions } from './routes/health';
import { mcpRouter, type MessageBudget } from './routes/mcp';
import { metricsRouter } from './routes/metrics';

export interface AppDeps {
  dispatch: ModernDispatch;
  legacy: LegacyEndpoint;
  /** GET /readyz's checks (GET /healthz asks nothing). */
  readiness: HealthRoutesOptions;
  /** What GET /metrics serves. */
  metrics: Registry;
  /** METRICS_TOKEN: GET /metrics asks for it when set. */
  metricsToken?: string;
  /** The admin API, mounted at /admin when configured (ADMIN_TOKEN); absent, /admin is 404. */
  admin?: Router;
  /** The codec endpoint, mounted at /codec when configured (ADMIN_TOKEN); absent, /codec is 404. */
  codec?: Router;
  /** The evidence log's public keys at their well-known path (services/api/src/evidence), open to anyone. */
  evidenceJwks?: Router;
  /** The answer API and pages (`/answers`), for the people and bots questions are addressed to. */
  answers?: Router;
  /** ANSWER_PUBLIC_URL: the origin people reach the answer pages at, one of this server's names. */
  answerPublicOrigin?: string;
  /** Who may call the MCP routes (AUTH_MODE): with OAuth, their metadata is served and every request carries a token. */
  auth: AuthConfig;
  maxBodyBytes: number;
  budget: MessageBudget;
  sseMaxBufferedBytes: number;
  /** The process's stop (http/shutdown.ts). */
  shutdown: Shutdown;
  allowedOrigins: ReadonlyArray<string>;
  listenHost: string;
  /** ALLOWED_HOSTS (origin-guard.ts). */
  allowedHosts: ReadonlyArray<string>;
  /**
   * TRUST_PROXY: the proxies whose X-Forwarded-For and X-Forwarded-Proto express believes for
   * `req.ip` (what wrong tokens are counted per) and `req.secure` (the codec cookie's Secure).
   */
  trustProxy: TrustProxy;
  log: Logger;
}

export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy);
  app.use(requestIds());
  app.use(accessLog(deps.log));
  // Every route: a page that rebinds its DNS name to this server reads nothing here, /metrics included.
  app.use(
    hostGuard({
      listenHost: deps.listenHost,
      allowedHosts: deps.allowedHosts,
      allowedOrigins: deps.allowedOrigins,
      publicUrls: [
        ...(deps.auth.mode === 'oauth' ? [deps.auth.resource] : []),
        ...(deps.answerPublicOrigin !== undefined ? [deps.answerPublicOrigin] : []),
      ],
    }),
  );
  app.use(drainGuard(deps.shutdown.draining));
  app.use(healthRouter(deps.readiness));
  app.use(metricsRouter(deps.metrics, deps.log, deps.metricsToken));
  if (deps.admin) app.use('/admin', deps.admin);
  app.use('/codec', deps.codec ?? codecEndpointOff());
  if (deps.auth.mode === 'oauth') app.use(metadataRoutes(deps.auth));
  if (deps.evidenceJwks) app.use(deps.evidenceJwks);
  const guard = originGuard({ allowedOrigins: deps.allowedOrigins });
  app.use(GUARDED_PATHS, guard);
  // Before any body is read: a request without a valid token costs nothing more.
  app.use(GUARDED_PATHS, bearerGate(deps.auth, deps.log));
  // The answer API: the same Host and Origin rules as /mcp, and tokens for a resource of its own.
  if (deps.answers) app.use(ANSWER_API_PATH, guard, answerApiGate(deps.auth, deps.log));
  if (deps.answers) app.use('/answers', deps.answers);
  app.use(
    mcpRouter({
      dispatch: deps.dispatch,
      legacy: deps.legacy,
      maxBodyBytes: deps.maxBodyBytes,
      budget: deps.budget,
      sseMaxBufferedBytes: deps.sseMaxBufferedBytes,
      draining: deps.shutdown.draining,
      log: deps.log,
    }),
  );
  app.use(bodyErrors(deps.log));
  return app;
}

/** One line per request at response close, its level set by status, with the request's id and exchange. */
function accessLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // Bound to the request: 'close' is emitted from the socket's context, outside it.
    res.on(
      'close',
      AsyncResource.bind(() => {
        const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
        const level = res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info';
        const principal = knownCallerOf(res)?.id;
        log[level](
          {
            method: req.method,
            path: req.path,
            status: res.statusCode,
            durationMs: Math.round(durationMs),
            mcpMethod: req.get('mcp-method'),
            ...(principal !== undefined ? { principal } : {}),
          },
          'request',
        );
      }),
    );
    next();
  };
}

/**
 * While the process drains, no connection is kept for another request: one that arrives on a
 * kept-alive connection goes elsewhere (503, `Retry-After`, `Connection: close`), and a response
 * not yet started when the drain begins closes its connection once sent (the listener takes no
 * new ones), so the client's next request opens a connection to a replica that serves.
 */
function drainGuard(draining: AbortSignal): RequestHandler {
  return (_req, res, next) => {
    if (draining.aborted) return replyWithError(res, 'transport', serverDraining());
    const closeAfter = () => {
      if (!res.headersSent) res.set('connection', 'close');
    };
    draining.addEventListener('abort', closeAfter, { once: true });
    res.once('close', () => draining.removeEventListener('abort', closeAfter));
    next();
  };
}

/** The catalog entry for a body-parser failure, by the HTTP status the parser gave it. */
function bodyErrorFor(status: number): RpcError {
  if (status >= 500) return internalError();
  if (status === 413) return bodyTooLarge();
  if (status === 415) return bodyUnsupported();
  return bodyUnreadable();
}

/** Body-parser failures (too large, unreadable) as JSON-RPC errors with the right HTTP status. */
function bodyErrors(log: Logger): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status >= 500) log.error({ err: error }, 'unhandled error');
    replyWithError(res, 'transport', bodyErrorFor(status));
  };
}
