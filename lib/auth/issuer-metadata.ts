/**
 * Where a trusted authorization server keeps its keys and its introspection endpoint: read once
 * per issuer from its metadata (RFC 8414 `oauth-authorization-server`, else OpenID Connect
 * Discovery's `openid-configuration`, in the order the MCP authorization spec gives clients),
 * on first use, and kept for the life of the process. The document must name the issuer it was
 * asked for (RFC 8414 §3.3), or it is not that issuer's. A server that cannot be reached, or
 * answers with no document, is `AuthorizationServerUnavailable` (the caller gets 503), and is not
 * asked again until its back-off has passed (fetch-backoff.ts: OAUTH_JWKS_COOLDOWN_MS, doubling
 * with each failure in a row): until then every request naming that issuer gets the same 503 at
 * once, so an outage does not turn each token claiming to be that issuer's into a request to it.
 */
import { z } from 'zod';
import { AuthorizationServerUnavailable } from './auth-errors';
import { isSecureEndpoint } from './endpoint-security';
import { createFetchBackoff, type FetchBackoff } from './fetch-backoff';

/** What this server reads of an authorization server's metadata. */
export interface IssuerMetadata {
  issuer: string;
  jwks_uri?: string;
  introspection_endpoint?: string;
}

const MetadataSchema = z.looseObject({
  issuer: z.string(),
  jwks_uri: z.url().optional(),
  introspection_endpoint: z.url().optional(),
});

/** The metadata URLs of an issuer, most specific first (RFC 8414 §3.1 path insertion, then OIDC Discovery). */
export function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, '');
  const at = (wellKnown: string) => `${url.origin}/.well-known/${wellKnown}${path}`;
  return path
    ? [
        at('oauth-authorization-server'),
        at('openid-configuration'),
        `${url.origin}${path}/.well-known/openid-configuration`,
      ]
    : [at('oauth-authorization-server'), at('openid-configuration')];
}

export interface IssuerMetadataSource {
  /** The issuer's metadata; throws `AuthorizationServerUnavailable`. */
  get(issuer: string): Promise<IssuerMetadata>;
}

export interface IssuerMetadataOptions {
  timeoutMs: number;
  allowHttp: boolean;
  /** The wait after a failed attempt before an issuer is asked again (doubling with each failure in a row). */
  backoffMs: number;
  now?: () => number;
}

export function createIssuerMetadata(options: IssuerMetadataOptions): IssuerMetadataSource {
  const known = new Map<string, Promise<IssuerMetadata>>();
  const backoffs = new Map<string, FetchBackoff>();
  const backoffOf = (issuer: string) => {
    let backoff = backoffs.get(issuer);
    if (!backoff) backoffs.set(issuer, (backoff = createFetchBackoff(options.backoffMs, options.now)));
    return backoff;
  };

  async function discover(issuer: string): Promise<IssuerMetadata> {
    for (const url of metadataUrls(issuer)) {
      let response: Response;
      try {
        response = await fetch(url, {
          headers: { accept: 'application/json' },
          redirect: 'error',
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        throw new AuthorizationServerUnavailable(`metadata of ${issuer} could not be fetched`, issuer, {
          cause: error,
        });
      }
      if (response.status === 404) continue;
      if (!response.ok) {
        throw new AuthorizationServerUnavailable(`metadata of ${issuer} answered HTTP ${response.status}`, issuer);
      }
      const parsed = MetadataSchema.safeParse(await response.json().catch(() => undefined));
      if (!parsed.success || parsed.data.issuer !== issuer) {
        throw new AuthorizationServerUnavailable(`${url} is not the metadata of ${issuer}`, issuer);
      }
      // Keys and token answers only over https (endpoint-security.ts), as the issuer itself.
      for (const field of ['jwks_uri', 'introspection_endpoint'] as const) {
        const endpoint = parsed.data[field];
        if (endpoint !== undefined && !isSecureEndpoint(new URL(endpoint), options.allowHttp))
          throw new AuthorizationServerUnavailable(
            `the metadata of ${issuer} names an ${field} that is not https: ${endpoint}`,
            issuer,
          );
      }
      return parsed.data;
    }
    throw new AuthorizationServerUnavailable(`${issuer} publishes no authorization server metadata`, issuer);
  }

  return {
    get(issuer) {
      let metadata = known.get(issuer);
      if (metadata) return metadata;
      const backoff = backoffOf(issuer);
      const waitMs = backoff.remainingMs();
      if (waitMs > 0)
        return Promise.reject(
          new AuthorizationServerUnavailable(
            `the metadata of ${issuer} failed lately: not asked again for ${Math.ceil(waitMs / 1000)} s`,
            issuer,
          ),
        );
      metadata = discover(issuer);
      known.set(issuer, metadata);
      // A failure is not kept: the first request after the back-off asks the server again.
      metadata.then(
        () => backoff.succeeded(),
        () => {
          backoff.failed();
          known.delete(issuer);
        },
      );
      return metadata;
    },
  };
}
