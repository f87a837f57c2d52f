/**
 * The resource server's configuration, read from the variables lib/config.ts catalogs: whether
 * callers are authenticated at all (AUTH_MODE), this server's canonical URI (the audience every
 * token must carry, taken from MCP_RESOURCE_URL and never from a request's Host), the
 * authorization servers it trusts, the scopes it requires, and how keys and introspection
 * results are cached. Pure: lib/config.ts calls it, and it is unit-tested beside it.
 */
import { resourceUrlFromServerUrl } from '@modelcontextprotocol/server';
import { isSecureEndpoint } from './endpoint-security';
import type { ServiceClaim } from './token-claims';

export interface OAuthConfig {
  mode: 'oauth';
  /** The canonical URI of the MCP endpoint (RFC 8707 resource, the PRM `resource`): what `/mcp` tokens are issued for. */
  resource: string;
  /**
   * The resource a 2024-11-05 client derives from its `/sse` URL (`…/sse` beside `…/mcp`); the
   * same as `resource` when that is a prefix of both (an origin). `/sse` and `/messages` accept
   * tokens for either.
   */
  sseResource: string;
  /** Issuer identifiers of the trusted authorization servers, as their metadata spells them. */
  issuers: string[];
  /** Scopes every request must carry (a missing one is 403 `insufficient_scope`). */
  requiredScopes: string[];
  /** What the metadata document advertises (`scopes_supported`). */
  scopesSupported: string[];
  /** JWS algorithms accepted on access tokens (`none` never is). */
  algorithms: string[];
  /** The `typ` header values accepted on JWT access tokens, lower case without `application/`; `none`: no `typ`. */
  tokenTypes: string[];
  clockToleranceS: number;
  /** The JWKS to use instead of the one the issuer's metadata names (one issuer only). */
  jwksUri?: string;
  jwks: { cacheMaxAgeMs: number; cooldownMs: number };
  /** Every request to an authorization server (metadata, keys, introspection) gives up after this. */
  requestTimeoutMs: number;
  /** OAUTH_ALLOW_HTTP_ISSUERS: http:// authorization-server URLs off loopback are accepted (endpoint-security.ts). */
  allowHttp: boolean;
  /** The access-token claim whose values are an answerer's groups at the answer API (ANSWER_GROUPS_CLAIM, as the page's sign-in reads it). */
  groupsClaim: string;
  /** Claims that mark a service's own token (OAUTH_SERVICE_CLAIMS; token-claims.ts `serviceTokenOf`). */
  serviceClaims: ServiceClaim[];
  /** The claim a person is known by across /mcp's tokens and the page's sign-in (ANSWER_IDENTITY_CLAIM; person-key.ts). */
  identityClaim?: string;
  /** The claim that names a caller's tenant, for the quotas per tenant and the fairness key (TENANT_CLAIM; tenant-claim.ts). */
  tenantClaim?: string;
  /**
   * The answer API as a protected resource of its own (ANSWER_API_RESOURCE_URL): a token for /mcp
   * is an agent's, and answers nothing there.
   */
  answerApi: { resource: string; requiredScopes: string[] };
  /** RFC 7662 introspection of opaque (non-JWT) tokens, as this confidential client; absent, they are refused. */
  introspection?: { clientId: string; clientSecret: string; cacheMs: number; maxConcurrent: number };
}

export type AuthConfig = { mode: 'off' } | OAuthConfig;

/**
 * The least OAUTH_JWKS_COOLDOWN_MS: below it, tokens with made-up key ids (or an authorization
 * server that is down) would make this server fetch the key set once per request.
 */
export const JWKS_COOLDOWN_FLOOR_MS = 1_000;
/** The least OAUTH_JWKS_CACHE_MAX_AGE_MS: below it, the keys' age alone would make fetches that frequent. */
export const JWKS_CACHE_MAX_AGE_FLOOR_MS = 60_000;

/** The variables this module reads, as lib/config.ts parsed them. */
export interface AuthEnv {
  AUTH_MODE: 'off' | 'oauth';
  MCP_RESOURCE_URL?: string;
  OAUTH_ISSUERS: string;
  OAUTH_REQUIRED_SCOPES: string;
  OAUTH_SCOPES_SUPPORTED: string;
  OAUTH_ALGORITHMS: string;
  OAUTH_TOKEN_TYPES: string;
  OAUTH_CLOCK_TOLERANCE_S: number;
  OAUTH_JWKS_URI?: string;
  OAUTH_JWKS_CACHE_MAX_AGE_MS: number;
  OAUTH_JWKS_COOLDOWN_MS: number;
  OAUTH_REQUEST_TIMEOUT_MS: number;
  OAUTH_INTROSPECTION_CLIENT_ID?: string;
  OAUTH_INTROSPECTION_CLIENT_SECRET?: string;
  OAUTH_INTROSPECTION_CACHE_MS: number;
  OAUTH_INTROSPECTION_MAX_CONCURRENT: number;
  OAUTH_ALLOW_HTTP_ISSUERS: boolean;
  OAUTH_SERVICE_CLAIMS: string;
  ANSWER_API_RESOURCE_URL?: string;
  ANSWER_API_REQUIRED_SCOPES: string;
  ANSWER_GROUPS_CLAIM: string;
  ANSWER_IDENTITY_CLAIM?: string;
  TENANT_CLAIM?: string;
}

/** A JWS `typ` as RFC 7515 §4.1.9 compares it: without case, `application/` implied. */
export const normalTokenType = (typ: string): string => typ.toLowerCase().replace(/^application\//, '');

const SUPPORTED_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

const list = (value: string) =>
  value
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);

/**
 * The canonical form of a resource URI (MCP authorization, "Canonical Server URI"): lowercase
 * scheme and host, no fragment, no trailing slash (an origin has none either).
 */
export function canonicalResource(raw: string, variable = 'MCP_RESOURCE_URL'): string {
  let url: URL;
  try {
    url = resourceUrlFromServerUrl(raw);
  } catch {
    throw new Error(`${variable} is malformed: not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${variable} must be an http(s) URL`);
  if (url.search) throw new Error(`${variable} must not have a query`);
  if (url.username || url.password) throw new Error(`${variable} must not carry credentials`);
  return url.href.replace(/\/+$/, '');
}

/** The answer API's resource when ANSWER_API_RESOURCE_URL does not name one: beside /mcp, as /sse is. */
export function answerApiResourceOf(resource: string): string {
  return resource.endsWith('/mcp') ? `${resource.slice(0, -'/mcp'.length)}/answers/api` : `${resource}/answers/api`;
}

/** OAUTH_SERVICE_CLAIMS: `claim` or `claim=value`, comma-separated. */
export function parseServiceClaims(raw: string): ServiceClaim[] {
  return list(raw).map((entry) => {
    const at = entry.indexOf('=');
    if (at === 0) throw new Error(`OAUTH_SERVICE_CLAIMS: "${entry}" names no claim`);
    return at < 0 ? { claim: entry } : { claim: entry.slice(0, at), value: entry.slice(at + 1) };
  });
}

/** The resource a 2024-11-05 client asks a token for, from its `…/sse` URL, given the `/mcp` one. */
export function sseResourceOf(resource: string): string {
  return resource.endsWith('/mcp') ? `${resource.slice(0, -'/mcp'.length)}/sse` : resource;
}

function checkIssuer(issuer: string, allowHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`OAUTH_ISSUERS: "${issuer}" is not a URL`);
  }
  if (url.search || url.hash) throw new Error(`OAUTH_ISSUERS: "${issuer}" must have no query or fragment`);
  if (!isSecureEndpoint(url, allowHttp)) {
    throw new Error(
      `OAUTH_ISSUERS: "${issuer}" must be https (http only on loopback, or with OAUTH_ALLOW_HTTP_ISSUERS)`,
    );
  }
  return issuer;
}

function checkScopes(variable: string, scopes: string[]): string[] {
  const bad = scopes.find((scope) => !SCOPE_TOKEN.test(scope));
  if (bad !== undefined) throw new Error(`${variable}: "${bad}" is not a scope token`);
  return scopes;
}

/** The auth configuration; throws an Error naming the variable when it is incomplete or contradictory. */
export function parseAuthConfig(env: AuthEnv): AuthConfig {
  if (env.AUTH_MODE === 'off') return { mode: 'off' };
  if (!env.MCP_RESOURCE_URL)
    throw new Error('MCP_RESOURCE_URL is required with AUTH_MODE=oauth (the canonical URI of /mcp)');
  const resource = canonicalResource(env.MCP_RESOURCE_URL);
  const issuers = list(env.OAUTH_ISSUERS).map((issuer) => checkIssuer(issuer, env.OAUTH_ALLOW_HTTP_ISSUERS));
  if (issuers.length === 0)
    throw new Error('OAUTH_ISSUERS is required with AUTH_MODE=oauth (the authorization servers trusted)');
  if (env.OAUTH_JWKS_URI && issuers.length > 1) throw new Error('OAUTH_JWKS_URI applies to one issuer only');
  if (env.OAUTH_JWKS_URI && !isSecureEndpoint(new URL(env.OAUTH_JWKS_URI), env.OAUTH_ALLOW_HTTP_ISSUERS))
    throw new Error('OAUTH_JWKS_URI must be https (http only on loopback, or with OAUTH_ALLOW_HTTP_ISSUERS)');
  const algorithms = list(env.OAUTH_ALGORITHMS);
  const unsupported = algorithms.find((alg) => !SUPPORTED_ALGORITHMS.includes(alg));
  if (unsupported !== undefined || algorithms.length === 0) {
    throw new Error(`OAUTH_ALGORITHMS: use some of ${SUPPORTED_ALGORITHMS.join(', ')}`);
  }
  const tokenTypes = list(env.OAUTH_TOKEN_TYPES).map(normalTokenType);
  if (tokenTypes.length === 0) throw new Error('OAUTH_TOKEN_TYPES: name at least one (at+jwt, say)');
  const requiredScopes = checkScopes('OAUTH_REQUIRED_SCOPES', list(env.OAUTH_REQUIRED_SCOPES));
  const advertised = checkScopes('OAUTH_SCOPES_SUPPORTED', list(env.OAUTH_SCOPES_SUPPORTED));
  const { OAUTH_INTROSPECTION_CLIENT_ID: clientId, OAUTH_INTROSPECTION_CLIENT_SECRET: clientSecret } = env;
  if ((clientId === undefined) !== (clientSecret === undefined)) {
    throw new Error('OAUTH_INTROSPECTION_CLIENT_ID and OAUTH_INTROSPECTION_CLIENT_SECRET go together');
  }
  const answerApiResource = env.ANSWER_API_RESOURCE_URL
    ? canonicalResource(env.ANSWER_API_RESOURCE_URL, 'ANSWER_API_RESOURCE_URL')
    : answerApiResourceOf(resource);
  if ([resource, sseResourceOf(resource)].includes(answerApiResource))
    throw new Error(
      "ANSWER_API_RESOURCE_URL must differ from MCP_RESOURCE_URL: an MCP client's token must not answer questions",
    );
  return {
    mode: 'oauth',
    resource,
    sseResource: sseResourceOf(resource),
    answerApi: {
      resource: answerApiResource,
      requiredScopes: checkScopes('ANSWER_API_REQUIRED_SCOPES', list(env.ANSWER_API_REQUIRED_SCOPES)),
    },
    serviceClaims: parseServiceClaims(env.OAUTH_SERVICE_CLAIMS),
    ...(env.ANSWER_IDENTITY_CLAIM !== undefined ? { identityClaim: env.ANSWER_IDENTITY_CLAIM } : {}),
    ...(env.TENANT_CLAIM !== undefined ? { tenantClaim: env.TENANT_CLAIM } : {}),
    issuers,
    requiredScopes,
    scopesSupported: advertised.length ? advertised : requiredScopes,
    algorithms,
    tokenTypes,
    clockToleranceS: env.OAUTH_CLOCK_TOLERANCE_S,
    groupsClaim: env.ANSWER_GROUPS_CLAIM,
    ...(env.OAUTH_JWKS_URI ? { jwksUri: env.OAUTH_JWKS_URI } : {}),
    jwks: { cacheMaxAgeMs: env.OAUTH_JWKS_CACHE_MAX_AGE_MS, cooldownMs: env.OAUTH_JWKS_COOLDOWN_MS },
    requestTimeoutMs: env.OAUTH_REQUEST_TIMEOUT_MS,
    allowHttp: env.OAUTH_ALLOW_HTTP_ISSUERS,
    ...(clientId !== undefined && clientSecret !== undefined
      ? {
          introspection: {
            clientId,
            clientSecret,
            cacheMs: env.OAUTH_INTROSPECTION_CACHE_MS,
            maxConcurrent: env.OAUTH_INTROSPECTION_MAX_CONCURRENT,
          },
        }
      : {}),
  };
}
