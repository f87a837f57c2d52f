/**
 * The ID token of a sign-in (OpenID Connect Core §3.1.3.7), verified with jose against the keys
 * the provider's metadata names (`jwks_uri`): signed under an allowed asymmetric algorithm (those
 * the provider lists, at most ID_TOKEN_ALGORITHMS: never `none`, never an HMAC under a secret the
 * client shares), `iss` the issuer, `aud` this client (and `azp` this client when it names one or
 * several audiences are named), `exp` not past, `iat` present, and `nonce` the one this sign-in
 * sent, so a token minted for another sign-in or another client is not taken. Keys are cached and
 * fetched again on an unknown key id (jose's cooldown), each fetch timed out and its body bounded.
 */
import { createRemoteJWKSet, customFetch, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { AuthorizationServerUnavailable } from './auth-errors';
import { boundedText } from './bounded-body';
import { tokenFault } from './jose-faults';
import type { OidcDiscovery } from './oidc-discovery';
import { SignInRefused } from './sign-in-refused';

/** The algorithms an ID token may be signed with, whatever the provider lists. */
export const ID_TOKEN_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];
/** A key set is a few kilobytes; past this it is not one. */
export const MAX_JWKS_BYTES = 256 * 1024;

export interface IdTokenOptions {
  issuer: string;
  clientId: string;
  clockToleranceS: number;
  timeoutMs: number;
  discovery: OidcDiscovery;
}

export type IdTokenVerifier = (idToken: string, nonce: string) => Promise<JWTPayload & { sub: string }>;

/** fetch, its body read up to MAX_JWKS_BYTES (jose times it out). */
const boundedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, { ...init, redirect: 'error' });
  const text = await boundedText(response, MAX_JWKS_BYTES);
  return new Response(text, { status: response.status, headers: { 'content-type': 'application/json' } });
};

/** The algorithms to accept: those the provider says it signs ID tokens with (RS256 when silent), of ours. */
export function allowedAlgorithms(listed: readonly string[] | undefined): string[] {
  return (listed ?? ['RS256']).filter((alg) => ID_TOKEN_ALGORITHMS.includes(alg));
}

export function createIdTokenVerifier(options: IdTokenOptions): IdTokenVerifier {
  let keys: ReturnType<typeof createRemoteJWKSet> | undefined;
  const { issuer, clientId } = options;

  return async function verifyIdToken(idToken, nonce) {
    const metadata = await options.discovery.get();
    const algorithms = allowedAlgorithms(metadata.id_token_signing_alg_values_supported);
    if (algorithms.length === 0)
      throw new AuthorizationServerUnavailable(`${issuer} signs ID tokens with no algorithm accepted here`, issuer);
    keys ??= createRemoteJWKSet(new URL(metadata.jwks_uri), {
      timeoutDuration: options.timeoutMs,
      cooldownDuration: 30_000,
      cacheMaxAge: 600_000,
      [customFetch]: boundedFetch,
    });
    let payload: JWTPayload;
    try {
      // An access token (RFC 9068) is no ID token, even from the same issuer and for this client.
      const typ = decodeProtectedHeader(idToken)
        .typ?.toLowerCase()
        .replace(/^application\//, '');
      if (typ === 'at+jwt') throw new SignInRefused('an access token was sent as the ID token');
      ({ payload } = await jwtVerify(idToken, keys, {
        issuer,
        audience: clientId,
        algorithms,
        clockTolerance: options.clockToleranceS,
        requiredClaims: ['exp', 'iat', 'sub', 'nonce'],
      }));
    } catch (error) {
      if (error instanceof SignInRefused) throw error;
      const fault = tokenFault(error);
      if (fault) throw new SignInRefused(`the ID token: ${fault.reason}`);
      throw new AuthorizationServerUnavailable(`the key set of ${issuer} could not be used`, issuer, { cause: error });
    }
    if (payload.nonce !== nonce) throw new SignInRefused('the ID token: not this sign-in (nonce)');
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if ((payload.azp !== undefined || audiences.length > 1) && payload.azp !== clientId)
      throw new SignInRefused('the ID token: issued to another party (azp)');
    if (typeof payload.sub !== 'string' || payload.sub.length === 0)
      throw new SignInRefused('the ID token: no subject (sub)');
    return payload as JWTPayload & { sub: string };
  };
}
