/**
 * An OpenID provider's metadata, as a relying party needs it (OpenID Connect Discovery 1.0):
 * fetched from `<issuer>/.well-known/openid-configuration` on first use and kept for the life of
 * the process. The document must name the very issuer asked for (§4.3), or it is someone else's,
 * and every endpoint it names must be https (http only on loopback, endpoint-security.ts), so
 * codes, tokens and keys never travel where anyone on the path could read or swap them. A fetch
 * that fails is not kept, and is not tried again before its back-off has passed (fetch-backoff.ts),
 * so an issuer that is down costs one request per back-off, not one per sign-in.
 */
import { z } from 'zod';
import { AuthorizationServerUnavailable } from './auth-errors';
import { boundedJson } from './bounded-body';
import { isSecureEndpoint } from './endpoint-security';
import { createFetchBackoff } from './fetch-backoff';

/** What the relying party reads of the provider's metadata. */
export interface OidcMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
  id_token_signing_alg_values_supported?: string[];
  code_challenge_methods_supported?: string[];
  subject_types_supported?: string[];
}

const MetadataSchema = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  subject_types_supported: z.array(z.string()).optional(),
});

/** A discovery document is a few kilobytes; past this it is not one. */
export const MAX_METADATA_BYTES = 256 * 1024;
/** The first wait after a failed discovery (doubling with each failure in a row). */
const DISCOVERY_BACKOFF_MS = 5_000;

/** Where OpenID Connect Discovery puts an issuer's configuration (§4: appended to its path). */
export const discoveryUrl = (issuer: string): string =>
  `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;

async function discover(issuer: string, timeoutMs: number): Promise<OidcMetadata> {
  const url = discoveryUrl(issuer);
  const unavailable = (why: string, cause?: unknown) =>
    new AuthorizationServerUnavailable(`discovery of ${issuer}: ${why}`, issuer, { cause });
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw unavailable(`${url} could not be fetched`, error);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw unavailable(`${url} answered HTTP ${response.status}`);
  }
  let body: unknown;
  try {
    body = await boundedJson(response, MAX_METADATA_BYTES);
  } catch (error) {
    throw unavailable(`${url} could not be read`, error);
  }
  const parsed = MetadataSchema.safeParse(body);
  if (!parsed.success) throw unavailable(`${url} is not an OpenID provider configuration`);
  const metadata = parsed.data;
  if (metadata.issuer !== issuer) throw unavailable(`${url} names another issuer (${metadata.issuer.slice(0, 200)})`);
  for (const field of ['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint'] as const) {
    const endpoint = metadata[field];
    if (endpoint !== undefined && !isSecureEndpoint(new URL(endpoint), false))
      throw unavailable(`its ${field} is not https: ${endpoint}`);
  }
  // RFC 7636 §4.2: a provider that lists its methods and not S256 would take the code without PKCE.
  const methods = metadata.code_challenge_methods_supported;
  if (methods !== undefined && !methods.includes('S256')) throw unavailable('it does not support PKCE with S256');
  return metadata;
}

export interface OidcDiscovery {
  /** The provider's metadata; throws `AuthorizationServerUnavailable`. */
  get(): Promise<OidcMetadata>;
}

export function createOidcDiscovery(issuer: string, timeoutMs: number, now?: () => number): OidcDiscovery {
  const backoff = createFetchBackoff(DISCOVERY_BACKOFF_MS, now);
  let known: Promise<OidcMetadata> | undefined;
  return {
    get() {
      if (known) return known;
      const waitMs = backoff.remainingMs();
      if (waitMs > 0)
        return Promise.reject(
          new AuthorizationServerUnavailable(
            `discovery of ${issuer} failed lately: not asked again for ${Math.ceil(waitMs / 1000)} s`,
            issuer,
          ),
        );
      const pending = discover(issuer, timeoutMs);
      known = pending;
      pending.then(
        () => backoff.succeeded(),
        () => {
          backoff.failed();
          known = undefined;
        },
      );
      return pending;
    },
  };
}
