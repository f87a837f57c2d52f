/**
 * The answer page's sign-in, from the ANSWER_* variables checked together: off when
 * ANSWER_OIDC_ISSUER is unset (and then none of the others may be set, so a half-done deployment
 * is told at start instead of serving no page); on, it needs a client id and the API's public
 * origin. Pure: lib/config/config.ts calls it, and it is unit-tested beside it. A problem is an
 * `Error` whose message names the variable (config.ts makes it a ConfigError).
 */
import { isSecureEndpoint } from './endpoint-security';

export interface AnswerSignInConfig {
  /** The issuer identifier, as its discovery document spells it. */
  issuer: string;
  clientId: string;
  /** Absent: a public client (PKCE alone binds the code to this sign-in). */
  clientSecret?: string;
  /** The API's public origin (`scheme://host[:port]`), what forms must come from. */
  publicOrigin: string;
  /** `<publicOrigin>/answers/callback`, registered at the issuer. */
  redirectUri: string;
  scopes: string[];
  groupsClaim: string;
  /** The claim a person is known by, when not by issuer and subject (ANSWER_IDENTITY_CLAIM; person-key.ts). */
  identityClaim?: string;
  sessionTtlMs: number;
  /**
   * How old a session's identity and groups may be before the person goes through the issuer
   * again (ANSWER_SESSION_REFRESH_MS, at most the session's life).
   */
  sessionRefreshMs: number;
  /** Each request to the issuer (discovery, keys, token, userinfo) gives up after this. */
  requestTimeoutMs: number;
  clockToleranceS: number;
}

/** The variables this module reads, as lib/config parsed them. */
export interface AnswerSignInEnv {
  ANSWER_OIDC_ISSUER?: string;
  ANSWER_OIDC_CLIENT_ID?: string;
  ANSWER_OIDC_CLIENT_SECRET?: string;
  ANSWER_PUBLIC_URL?: string;
  ANSWER_OIDC_SCOPES: string;
  ANSWER_GROUPS_CLAIM: string;
  ANSWER_IDENTITY_CLAIM?: string;
  ANSWER_SESSION_TTL_MS: number;
  ANSWER_SESSION_REFRESH_MS: number;
  OAUTH_REQUEST_TIMEOUT_MS: number;
  OAUTH_CLOCK_TOLERANCE_S: number;
}

/** Where the answer page's sign-in comes back to, under the public origin. */
export const ANSWER_CALLBACK_PATH = '/answers/callback';

const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

function issuerOf(raw: string): string {
  const url = new URL(raw);
  if (url.search || url.hash) throw new Error('ANSWER_OIDC_ISSUER is malformed: an issuer has no query or fragment');
  if (url.username || url.password) throw new Error('ANSWER_OIDC_ISSUER is malformed: must not carry credentials');
  if (!isSecureEndpoint(url, false))
    throw new Error('ANSWER_OIDC_ISSUER is malformed: must be https (http only on loopback)');
  return raw;
}

/** ANSWER_PUBLIC_URL as the origin forms must come from; throws naming the variable. */
export function publicOriginOf(raw: string): string {
  const url = new URL(raw);
  if (url.search || url.hash || url.username || url.password || url.pathname.replace(/\/+$/, '') !== '')
    throw new Error('ANSWER_PUBLIC_URL is malformed: must be an origin (scheme, host and port only)');
  if (!isSecureEndpoint(url, false))
    throw new Error('ANSWER_PUBLIC_URL is malformed: must be https (http only on loopback)');
  return url.origin;
}

function scopesOf(raw: string): string[] {
  const scopes = [...new Set(raw.split(/[\s,]+/).filter(Boolean))];
  if (!scopes.every((scope) => SCOPE_TOKEN.test(scope)))
    throw new Error('ANSWER_OIDC_SCOPES is malformed: scopes are printable ASCII without quotes or backslashes');
  if (!scopes.includes('openid'))
    throw new Error('ANSWER_OIDC_SCOPES is malformed: must include openid (an ID token is what signs the answerer in)');
  return scopes;
}

/** The sign-in's configuration, or undefined when the answer page is off; throws naming the variable. */
export function parseAnswerSignInConfig(env: AnswerSignInEnv): AnswerSignInConfig | undefined {
  if (env.ANSWER_OIDC_ISSUER === undefined) {
    const stray = (['ANSWER_OIDC_CLIENT_ID', 'ANSWER_OIDC_CLIENT_SECRET', 'ANSWER_PUBLIC_URL'] as const).find(
      (name) => env[name] !== undefined,
    );
    if (stray !== undefined)
      throw new Error(`ANSWER_OIDC_ISSUER is missing: ${stray} is set, and the answer page's sign-in needs its issuer`);
    return undefined;
  }
  const issuer = issuerOf(env.ANSWER_OIDC_ISSUER);
  if (env.ANSWER_OIDC_CLIENT_ID === undefined)
    throw new Error('ANSWER_OIDC_CLIENT_ID is missing: required with ANSWER_OIDC_ISSUER (the client registered there)');
  if (env.ANSWER_PUBLIC_URL === undefined)
    throw new Error(
      "ANSWER_PUBLIC_URL is missing: required with ANSWER_OIDC_ISSUER (the API's public origin, for the redirect URI)",
    );
  const publicOrigin = publicOriginOf(env.ANSWER_PUBLIC_URL);
  return {
    issuer,
    clientId: env.ANSWER_OIDC_CLIENT_ID,
    ...(env.ANSWER_OIDC_CLIENT_SECRET !== undefined ? { clientSecret: env.ANSWER_OIDC_CLIENT_SECRET } : {}),
    publicOrigin,
    redirectUri: `${publicOrigin}${ANSWER_CALLBACK_PATH}`,
    scopes: scopesOf(env.ANSWER_OIDC_SCOPES),
    groupsClaim: env.ANSWER_GROUPS_CLAIM,
    ...(env.ANSWER_IDENTITY_CLAIM !== undefined ? { identityClaim: env.ANSWER_IDENTITY_CLAIM } : {}),
    sessionTtlMs: env.ANSWER_SESSION_TTL_MS,
    sessionRefreshMs: Math.min(env.ANSWER_SESSION_REFRESH_MS, env.ANSWER_SESSION_TTL_MS),
    requestTimeoutMs: env.OAUTH_REQUEST_TIMEOUT_MS,
    clockToleranceS: env.OAUTH_CLOCK_TOLERANCE_S,
  };
}
