/**
 * JWT access tokens (RFC 9068), verified with jose against the issuer's JSON Web Key Set: the
 * issuer must be one this server trusts, the signature one of its current keys under an allowed
 * algorithm (`none` never is), `exp` present and not past, `nbf` and `iat` within the clock
 * tolerance, and `aud` one of the resources the request accepts. The key set is fetched on first
 * use from the `jwks_uri` of the issuer's metadata (or OAUTH_JWKS_URI) and cached
 * (OAUTH_JWKS_CACHE_MAX_AGE_MS); a token signed with a key id the cache lacks fetches it again at
 * once, at most every OAUTH_JWKS_COOLDOWN_MS, so an issuer's key rotation is picked up without a
 * restart. A key set that cannot be fetched is the server's outage, not the token's fault (503);
 * after a failed fetch the key set is not asked for again until its back-off has passed
 * (fetch-backoff.ts: the cooldown, doubling with each failure in a row), and every token that
 * would have fetched it meanwhile gets the same 503 at once. So neither forged tokens with
 * made-up key ids nor an authorization server that is down make a fetch per request: jose's
 * cooldown counts from the last fetch that succeeded, the back-off from the last that failed.
 */
import type { AuthInfo } from '@modelcontextprotocol/server';
import { createRemoteJWKSet, customFetch, decodeJwt, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { normalTokenType, type OAuthConfig } from './auth-config';
import { AuthorizationServerUnavailable } from './auth-errors';
import { createFetchBackoff } from './fetch-backoff';
import { tokenFault } from './jose-faults';
import type { IssuerMetadataSource } from './issuer-metadata';
import { audienceForms, authInfoFromClaims } from './token-claims';
import { REFUSAL, TokenRefused } from './token-refusal';

type KeySet = ReturnType<typeof createRemoteJWKSet>;

/** A key-set fetch not sent: the last one failed, and its back-off has not passed. */
class KeySetBackingOff extends Error {
  constructor(readonly waitMs: number) {
    super(`a fetch of the key set failed lately: not asked again for ${Math.ceil(waitMs / 1000)} s`);
  }
}

/**
 * The fetch jose's remote key set uses, behind a back-off: an attempt within it fails at once
 * without a request; a request that fails, answers other than 200, or answers with no key set
 * (`{"keys": [...]}`) starts or lengthens it; one that brings a key set ends it.
 */
function backedOffFetch(cooldownMs: number): typeof fetch {
  const backoff = createFetchBackoff(cooldownMs);
  return async (input, init) => {
    const waitMs = backoff.remainingMs();
    if (waitMs > 0) throw new KeySetBackingOff(waitMs);
    try {
      const response = await fetch(input, init);
      if (response.status !== 200) {
        await response.body?.cancel();
        backoff.failed();
        return response;
      }
      const text = await response.text();
      const keys = (JSON.parse(text) as { keys?: unknown } | null)?.keys;
      if (!Array.isArray(keys)) throw new SyntaxError('not a JSON Web Key Set');
      backoff.succeeded();
      return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
    } catch (error) {
      backoff.failed();
      throw error;
    }
  };
}

/** The refusal for a jose error about the token, or the outage it means. */
function classify(error: unknown, issuer: string): Error {
  if (error instanceof KeySetBackingOff)
    return new AuthorizationServerUnavailable(`the key set of ${issuer}: ${error.message}`, issuer);
  const fault = tokenFault(error);
  if (fault) {
    if (fault.code === 'ERR_JWT_EXPIRED') return new TokenRefused(REFUSAL.expired, fault.code);
    if (fault.claim === 'aud') return new TokenRefused(REFUSAL.audience, fault.reason);
    return new TokenRefused(REFUSAL.invalid, fault.reason);
  }
  return new AuthorizationServerUnavailable(`the key set of ${issuer} could not be used`, issuer, { cause: error });
}

export type JwtVerifier = (token: string, resources: readonly string[]) => Promise<AuthInfo>;

export function createJwtVerifier(config: OAuthConfig, metadata: IssuerMetadataSource): JwtVerifier {
  const keySets = new Map<string, KeySet>();

  async function keysOf(issuer: string): Promise<KeySet> {
    const known = keySets.get(issuer);
    if (known) return known;
    const uri = config.jwksUri ?? (await metadata.get(issuer)).jwks_uri;
    if (!uri) throw new AuthorizationServerUnavailable(`the metadata of ${issuer} names no jwks_uri`, issuer);
    const keys =
      keySets.get(issuer) ??
      createRemoteJWKSet(new URL(uri), {
        cacheMaxAge: config.jwks.cacheMaxAgeMs,
        cooldownDuration: config.jwks.cooldownMs,
        timeoutDuration: config.requestTimeoutMs,
        [customFetch]: backedOffFetch(config.jwks.cooldownMs),
      });
    keySets.set(issuer, keys);
    return keys;
  }

  return async function verifyJwt(token, resources) {
    let unverified: JWTPayload;
    try {
      unverified = decodeJwt(token);
    } catch (error) {
      throw new TokenRefused(REFUSAL.invalid, (error as { code?: string }).code ?? 'not a JWT');
    }
    // RFC 9068 §4: an access token says it is one; a JWT of another type (an ID token) is not taken for one.
    const typ: unknown = decodeProtectedHeader(token).typ;
    // A header's `typ` is the client's to write: anything but a string is an invalid token, not a fault.
    if (typ !== undefined && typeof typ !== 'string') throw new TokenRefused(REFUSAL.invalid, 'typ is not a string');
    if (!config.tokenTypes.includes(typ === undefined ? 'none' : normalTokenType(typ)))
      throw new TokenRefused(
        REFUSAL.invalid,
        `typ ${typ === undefined ? 'absent' : JSON.stringify(typ.slice(0, 64))} not accepted (OAUTH_TOKEN_TYPES)`,
      );
    // Only to pick the key set: the issuer is verified with the signature below.
    const issuer = config.issuers.find((trusted) => trusted === unverified.iss);
    if (issuer === undefined) throw new TokenRefused(REFUSAL.issuer, 'untrusted iss');
    const keys = await keysOf(issuer);
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer,
        audience: resources.flatMap(audienceForms),
        algorithms: config.algorithms,
        clockTolerance: config.clockToleranceS,
        requiredClaims: ['exp'],
      });
      return authInfoFromClaims(token, payload, issuer, resources, config);
    } catch (error) {
      if (error instanceof TokenRefused) throw error;
      throw classify(error, issuer);
    }
  };
}
