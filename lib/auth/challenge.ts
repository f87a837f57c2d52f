/**
 * The HTTP answers of a refused request, with their `WWW-Authenticate: Bearer` challenge
 * (RFC 6750 §3, RFC 9728 §5.1), so a client learns where the protected resource metadata is and
 * which scopes to ask for:
 *
 * - no credentials: 401 `Bearer resource_metadata="…"[, scope="…"]`, with no error code (RFC 6750
 *   §3.1: the client did not know it needed one);
 * - a token refused: 401 `error="invalid_token"`, and a token short of scopes: 403
 *   `error="insufficient_scope"` with `scope=` naming all of them, both rendered by the SDK's
 *   `bearerAuthChallengeResponse`;
 * - a token in the query string: 400 `invalid_request` (tokens go in the header only);
 * - an authorization server that cannot be reached: 503 with `Retry-After`, no challenge.
 *
 * Bodies are OAuth error objects (`error`, `error_description`).
 */
import { bearerAuthChallengeResponse, OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';

export interface Refusal {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface ChallengeOptions {
  /** The scopes every request needs (`scope=`, omitted when none). */
  requiredScopes: readonly string[];
  /** The absolute URL of the protected resource metadata that describes the refused route. */
  resourceMetadataUrl: string;
}

/** An HTTP quoted-string (RFC 9110 §5.6.4), as the SDK's own challenges quote: `\` and `"` escaped, controls blanked. */
export const quoted = (value: string): string =>
  `"${value.replaceAll(/[\\"]/g, (c) => `\\${c}`).replaceAll(/[^\x20-\x7e]/g, ' ')}"`;

/** 401 for a request that carries no token at all. */
export function missingTokenRefusal(options: ChallengeOptions): Refusal {
  const params = [`resource_metadata=${quoted(options.resourceMetadataUrl)}`];
  if (options.requiredScopes.length > 0) params.push(`scope=${quoted(options.requiredScopes.join(' '))}`);
  return {
    status: 401,
    headers: { 'www-authenticate': `Bearer ${params.join(', ')}` },
    body: { error: 'unauthorized', error_description: 'A bearer access token is required' },
  };
}

/** 401 or 403 (or 400) for a token the SDK's verification refused, as the SDK renders it. */
export async function tokenRefusal(error: OAuthError, options: ChallengeOptions): Promise<Refusal> {
  const response = bearerAuthChallengeResponse(error, {
    requiredScopes: [...options.requiredScopes],
    resourceMetadataUrl: options.resourceMetadataUrl,
  });
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: (await response.json()) as Record<string, unknown>,
  };
}

/** 400 for a token sent in the URL, where logs and proxies keep it (RFC 6750 §2.3; the MCP spec forbids it). */
export const queryTokenRefusal = (options: ChallengeOptions): Promise<Refusal> =>
  tokenRefusal(
    new OAuthError(
      OAuthErrorCode.InvalidRequest,
      'Send the access token in the Authorization header, never in the URL',
    ),
    options,
  );

/** 503 while an authorization server (its metadata, keys or introspection) cannot be reached. */
export function unavailableRefusal(retryAfterS: number): Refusal {
  return {
    status: 503,
    headers: { 'retry-after': String(retryAfterS) },
    body: {
      error: 'temporarily_unavailable',
      error_description: 'The access token cannot be checked right now: the authorization server is unreachable',
    },
  };
}
