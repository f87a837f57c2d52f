/**
 * The resource server's token check, as the SDK's `OAuthTokenVerifier` so its `verifyBearerToken`
 * runs it: a JWT is verified locally against its issuer's keys (jwt-verifier.ts); any other token
 * is introspected when OAUTH_INTROSPECTION_CLIENT_ID is set (introspection.ts), else refused.
 * One verifier per set of resources a route accepts (`/mcp`: the canonical URI; the 2024-11-05
 * transport: its own URI as well), sharing the issuers' metadata and key sets.
 */
import type { OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { decodeProtectedHeader } from 'jose';
import type { OAuthConfig } from './auth-config';
import { createIntrospector } from './introspection';
import { createIssuerMetadata } from './issuer-metadata';
import { createJwtVerifier } from './jwt-verifier';
import { REFUSAL, TokenRefused } from './token-refusal';

/** True when the token is a compact JWS (three parts, a JSON header): a JWT, as far as its shape goes. */
function isJwt(token: string): boolean {
  if (token.split('.').length !== 3) return false;
  try {
    decodeProtectedHeader(token);
    return true;
  } catch {
    return false;
  }
}

export interface TokenVerifiers {
  /** The verifier for tokens issued for one of `resources` (the first is the canonical one). */
  forResources(resources: readonly string[]): OAuthTokenVerifier;
}

export function createTokenVerifiers(config: OAuthConfig): TokenVerifiers {
  const metadata = createIssuerMetadata({
    timeoutMs: config.requestTimeoutMs,
    allowHttp: config.allowHttp,
    backoffMs: config.jwks.cooldownMs,
  });
  const verifyJwt = createJwtVerifier(config, metadata);
  const { introspection } = config;
  const introspect = introspection ? createIntrospector({ ...config, introspection }, metadata) : undefined;
  return {
    forResources: (resources) => ({
      async verifyAccessToken(token) {
        if (isJwt(token)) return verifyJwt(token, resources);
        if (introspect) return introspect(token, resources);
        throw new TokenRefused(REFUSAL.invalid, 'not a JWT, and introspection is off');
      },
    }),
  };
}
