/**
 * The environment a development stack runs the service with: the local stack's Postgres and
 * Temporal, development keys and admin token kept in the data folder (unless set), the dev
 * server's Web UI linked from the admin view, and the answer page with its development sign-in,
 * so a question addressed to someone else can be answered on this machine. `npm run dev` parses
 * it in-process; `durable-mcp dev` hands it to the service process it restarts on each change.
 */
import path from 'node:path';
import type { Logger } from '../../lib/log';
import { devCodecTrustEnvironment } from './dev-codec-trust';
import { devKeyRings, devSecret } from './dev-key-ring';
import type { LocalStack } from './local-stack/local-stack';

/** The API's origin as a browser on this machine reaches it, or undefined while its port is not known. */
export function apiOriginForBrowser(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const port = Number(env.PORT ?? 3000);
  if (!(port > 0)) return undefined; // a port picked at start is not known yet
  const host = env.HOST ?? '127.0.0.1';
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachable}:${port}`;
}

/** The API's codec endpoint as a browser on this machine reaches it: what the dev server's Web UI decodes through. */
export function codecEndpointForBrowser(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const origin = apiOriginForBrowser(env);
  return origin === undefined ? undefined : `${origin}/codec`;
}

/**
 * The answer page's development sign-in (ANSWER_DEV_SIGN_IN), and the origin its form must be
 * posted from: on unless the environment says otherwise (ANSWER_DEV_SIGN_IN set either way), the
 * answer page signs in through an issuer (ANSWER_OIDC_ISSUER), callers are authenticated
 * (AUTH_MODE other than off, where the service would refuse it), or the port is picked at start.
 */
export function devSignInEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (env.ANSWER_DEV_SIGN_IN || env.ANSWER_OIDC_ISSUER || (env.AUTH_MODE || 'off') !== 'off') return {};
  const origin = env.ANSWER_PUBLIC_URL || apiOriginForBrowser(env);
  return origin === undefined ? {} : { ANSWER_DEV_SIGN_IN: 'true', ANSWER_PUBLIC_URL: origin };
}

/** The answer page's URL for the banner, from the environment the service runs with, or why there is none. */
export function answerPageFrom(env: NodeJS.ProcessEnv): string {
  if (env.ANSWER_DEV_SIGN_IN === 'true' && env.ANSWER_PUBLIC_URL)
    return `${env.ANSWER_PUBLIC_URL.replace(/\/+$/, '')}/answers   (development sign-in: type any name and groups)`;
  if (env.ANSWER_OIDC_ISSUER && env.ANSWER_PUBLIC_URL)
    return `${env.ANSWER_PUBLIC_URL.replace(/\/+$/, '')}/answers   (sign-in at ${env.ANSWER_OIDC_ISSUER})`;
  return '(off: set ANSWER_DEV_SIGN_IN=true and ANSWER_PUBLIC_URL, with AUTH_MODE=off)';
}

export function devServiceEnvironment(
  dataDir: string,
  local: LocalStack,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'development',
    ...env,
    DATABASE_URL: local.databaseUrl,
    TEMPORAL_ADDRESS: local.temporalAddress,
    ...devKeyRings(dataDir, log, env),
    // The admin API and the codec endpoint the Web UI decodes payloads through are on in development.
    ADMIN_TOKEN: env.ADMIN_TOKEN || devSecret(dataDir, log, 'ADMIN_TOKEN'),
    // The admin view links exchanges to this dev server's Web UI.
    ...(local.temporalUiUrl && !env.TEMPORAL_UI_URL ? { TEMPORAL_UI_URL: local.temporalUiUrl } : {}),
    // Questions addressed to someone else are answered at the answer page, signed in as anyone.
    ...devSignInEnvironment(env),
    // The Web UI on this machine decodes through the codec endpoint with no sign-in (loopback only).
    ...devCodecTrustEnvironment(env),
  };
}

/** Where the admin token is, for the banner. */
export function adminTokenFrom(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.ADMIN_TOKEN ? 'ADMIN_TOKEN' : `token in ${path.join(dataDir, 'dev-admin-token')}`;
}
