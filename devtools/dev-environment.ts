/**
 * The environment a development stack runs the service with: the local stack's Postgres and
 * Temporal, development keys and admin token kept in the data folder (unless set), and the dev
 * server's Web UI linked from the admin view. `npm run dev` parses it in-process; `durable-mcp dev`
 * hands it to the service process it restarts on each change.
 */
import path from 'node:path';
import type { Logger } from '../lib/log';
import { devKeyRings, devSecret } from './dev-key-ring';
import type { LocalStack } from './local-stack/local-stack';

/** The API's codec endpoint as a browser on this machine reaches it: what the dev server's Web UI decodes through. */
export function codecEndpointForBrowser(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const port = Number(env.PORT ?? 3000);
  if (!(port > 0)) return undefined; // a port picked at start is not known yet
  const host = env.HOST ?? '127.0.0.1';
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${reachable}:${port}/codec`;
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
  };
}

/** Where the admin token is, for the banner. */
export function adminTokenFrom(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.ADMIN_TOKEN ? 'ADMIN_TOKEN' : `token in ${path.join(dataDir, 'dev-admin-token')}`;
}
