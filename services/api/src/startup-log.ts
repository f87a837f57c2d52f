/**
 * What the API says once as it starts: who may call (loudly when nobody is asked, since every
 * caller is then one principal), whether the admin API and the codec endpoint are on, and, loudly
 * too, when the answer page signs in whoever names themselves (the development sign-in).
 */
import type { Config } from '../../../lib/config';
import { isLoopbackHost } from '../../../lib/loopback-host';
import type { Logger } from '../../../lib/log';

export function logStartup(config: Config, log: Logger): void {
  logAuthMode(config.auth, config.http, log);
  if (config.admin.token) log.info('admin API on at /admin (bearer token from ADMIN_TOKEN)');
  else log.info('admin API off: ADMIN_TOKEN is not set, /admin answers 404');
  if (config.admin.token)
    log.info(
      { allowedOrigins: config.codecEndpoint.allowedOrigins },
      'codec endpoint on at /codec (admin token, or a browser signed in at /codec/sign-in)',
    );
  else log.info('codec endpoint off: ADMIN_TOKEN is not set, /codec answers 404');
  if (config.answers.devSignIn)
    log.warn(
      { answerPage: `${config.answers.devSignIn.publicOrigin}/answers` },
      'ANSWER_DEV_SIGN_IN=true: the answer page signs in whoever opens it as anyone they name, with any groups; for local development only',
    );
}

/** Says at start who may call: loudly when nobody is asked, since every caller is then one principal. */
function logAuthMode(auth: Config['auth'], http: Config['http'], log: Logger): void {
  if (auth.mode === 'off') {
    log.warn(
      'AUTH_MODE=off: /mcp, /sse and /messages accept every caller as the one anonymous principal; ' +
        'any holder of a requestState or session id can answer for it. Set AUTH_MODE=oauth outside local development',
    );
    if (!isLoopbackHost(http.host)) {
      log.warn(
        { host: http.host },
        'ALLOW_UNAUTHENTICATED=true: serving unauthenticated on an address that is not loopback; ' +
          'only trusted callers may reach it',
      );
    }
    return;
  }
  log.info(
    {
      resource: auth.resource,
      issuers: auth.issuers,
      requiredScopes: auth.requiredScopes,
      introspection: auth.introspection !== undefined,
    },
    'OAuth resource server on: every request to /mcp, /sse and /messages needs a bearer token',
  );
  if (new URL(auth.resource).protocol !== 'https:') {
    log.warn({ resource: auth.resource }, 'MCP_RESOURCE_URL is not https: tokens travel in clear to this server');
  }
}
