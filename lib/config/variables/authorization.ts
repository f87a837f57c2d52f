/**
 * Who may call the API: the OAuth 2.1 resource server's variables (docs/security.md
 * "Authorization"), and whether an API that asks nobody may listen beyond loopback.
 */
import { z } from 'zod';
import { documented } from './documented';
import { JWKS_CACHE_MAX_AGE_FLOOR_MS, JWKS_COOLDOWN_FLOOR_MS } from '../../auth/auth-config';
import { boolean, integer, unsetWhenEmpty } from './value-kinds';

/** Authorization */
export const AUTHORIZATION_VARIABLES = {
  AUTH_MODE: documented(
    z.enum(['off', 'oauth']).default('off'),
    '`off`: every caller is the one `anonymous` principal (local development; a `warn` line at start says so; on a `HOST` that is not loopback only with `ALLOW_UNAUTHENTICATED=true`); `oauth`: a bearer token on every request ([Authorization](security.md#authorization))',
  ),
  MCP_RESOURCE_URL: documented(
    unsetWhenEmpty(z.string().min(1)),
    "the canonical URI of `/mcp` (`https://mcp.example.com/mcp`): the audience tokens must carry, the metadata's `resource`",
    '(required with `oauth`)',
  ),
  OAUTH_ISSUERS: documented(
    z.string().default(''),
    "the trusted authorization servers' issuer identifiers, comma-separated (https, or http on loopback)",
    '(required with `oauth`)',
  ),
  OAUTH_REQUIRED_SCOPES: documented(
    z.string().default(''),
    'scopes every request must carry (space- or comma-separated); a token without them gets 403 `insufficient_scope`',
  ),
  OAUTH_SCOPES_SUPPORTED: documented(
    z.string().default(''),
    'what the protected resource metadata advertises as `scopes_supported`',
    '(the required scopes)',
  ),
  OAUTH_SERVICE_CLAIMS: documented(
    z
      .string()
      .regex(/^[\x21-\x7e]*$/, 'must be claim or claim=value entries, comma-separated, without spaces')
      .default(''),
    "claims that mark a service's own token (client credentials) at an issuer whose such tokens carry a `sub` of their own, comma-separated, each `claim` (present) or `claim=value`: `idtyp=app` for Entra ID, `gty=client-credentials` for Auth0. A token without `sub`, or whose `sub` is its client (`client_id` or `azp`), is a service's anyway; every other token names a person ([who may answer](security.md#questions-addressed-to-someone-else-who-may-answer))",
    '(none)',
  ),
  TENANT_CLAIM: documented(
    unsetWhenEmpty(z.string().trim().min(1)),
    "the access-token claim that names the caller's tenant (an organisation, a team: `tid` at Entra ID, `org_id` at Auth0), keyed under its issuer; read for the quotas per tenant (`QUOTA_CALLS_PER_*_PER_TENANT`, tenant rules of `QUOTAS_FILE`) and `FAIRNESS_KEY=tenant`, which require it (`AUTH_MODE=oauth` only). A token without it belongs to no tenant, and is counted and keyed by its principal",
    '(none)',
  ),
  ANSWER_API_RESOURCE_URL: documented(
    unsetWhenEmpty(z.string().min(1)),
    "the canonical URI of the answer API (`https://mcp.example.com/answers/api`): the audience a service's token for it must carry, and its protected resource metadata's `resource`. A token for `MCP_RESOURCE_URL` (an MCP client's) is refused there, and its attempt recorded",
    '(`MCP_RESOURCE_URL` with its last `/mcp` made `/answers/api`, or the origin followed by `/answers/api`)',
  ),
  ANSWER_API_REQUIRED_SCOPES: documented(
    z.string().default(''),
    'scopes every request to the answer API must carry (space- or comma-separated); a token without them gets 403 `insufficient_scope`',
    '(none)',
  ),
  OAUTH_ALGORITHMS: documented(
    z.string().default('RS256,PS256,ES256,EdDSA'),
    'JWS algorithms accepted on JWT access tokens',
  ),
  OAUTH_TOKEN_TYPES: documented(
    z.string().default('at+jwt'),
    'the JWS `typ` headers a JWT access token may carry (RFC 9068; compared without case or `application/`), comma-separated; `none` admits a token without one. The default refuses an ID token or any other JWT the issuer signs; for an issuer that does not set `at+jwt`, e.g. `at+jwt,jwt,none`',
  ),
  OAUTH_CLOCK_TOLERANCE_S: documented(
    integer(0, 300).default(30),
    "leeway for `nbf` and `iat` between this server's clock and the issuer's",
  ),
  OAUTH_JWKS_URI: documented(
    unsetWhenEmpty(z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')),
    'the key set to use instead (one issuer only)',
    "(none: the issuer's metadata names it)",
  ),
  OAUTH_JWKS_CACHE_MAX_AGE_MS: documented(
    integer(
      JWKS_CACHE_MAX_AGE_FLOOR_MS,
      Number.MAX_SAFE_INTEGER,
      'a shorter cache would fetch the key set that often whatever the tokens',
    ).default(600_000),
    'how long fetched keys are used before they are fetched again; at least `60000`, so their age alone never makes this server ask the authorization server more than once a minute',
  ),
  OAUTH_JWKS_COOLDOWN_MS: documented(
    integer(
      JWKS_COOLDOWN_FLOOR_MS,
      Number.MAX_SAFE_INTEGER,
      'a shorter cooldown lets every token with a made-up key id cost a key-set fetch',
    ).default(30_000),
    "the least time between two key-set fetches of an issuer (a token with an unknown key id fetches at once after it), and the wait after a failed fetch of its keys or metadata before it is asked again, doubling with each failure in a row up to 2 minutes (503 meanwhile); at least `1000`, so neither forged tokens with made-up key ids nor an authorization server's outage cost a fetch per request",
  ),
  OAUTH_REQUEST_TIMEOUT_MS: documented(
    integer(100, 60_000).default(5_000),
    'each request to an authorization server (metadata, keys, introspection); past it the caller gets 503',
  ),
  OAUTH_INTROSPECTION_CLIENT_ID: documented(
    unsetWhenEmpty(z.string().min(1)),
    'with `OAUTH_INTROSPECTION_CLIENT_SECRET`: accept opaque tokens by RFC 7662 introspection, as this confidential client; unset, only JWTs are accepted',
  ),
  OAUTH_INTROSPECTION_CLIENT_SECRET: documented(unsetWhenEmpty(z.string().min(1)), "the introspecting client's secret"),
  OAUTH_INTROSPECTION_CACHE_MS: documented(
    integer(0).default(60_000),
    "how long an introspection answer is reused (never past the token's expiry)",
  ),
  OAUTH_INTROSPECTION_MAX_CONCURRENT: documented(
    integer(1, 1024).default(32),
    'introspection requests out at once at most; a token not yet known past it gets 503 with `Retry-After`',
  ),
  OAUTH_ALLOW_HTTP_ISSUERS: documented(
    boolean('false'),
    'trust `http://` issuers off loopback (a private network, in development only)',
  ),
  ALLOW_UNAUTHENTICATED: documented(
    boolean('false'),
    "`true` lets the API start with `AUTH_MODE=off` on a `HOST` that is not loopback (127.0.0.0/8, `::1`, `localhost`), such as a container's `0.0.0.0`: for an address only trusted callers reach. Otherwise that start is refused, naming both variables",
  ),
};
