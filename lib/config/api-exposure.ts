/** An unauthenticated API listens on loopback only, unless ALLOW_UNAUTHENTICATED says so. */
import { isLoopbackHost } from '../loopback-host';
import type { Config } from './config';
import { ConfigError } from './errors';

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
      '(docs/security.md "Authorization"), listen on loopback (HOST=127.0.0.1), or set ALLOW_UNAUTHENTICATED=true ' +
      'if only trusted callers can reach HOST (a container published on 127.0.0.1, a private network)',
  );
}
