/**
 * What a jose verification error says of a JWT: a fault of the token itself (its signature, its
 * claims, its algorithm, a key id no key matches), which the caller refuses as it refuses tokens,
 * or anything else, which is the key set's trouble (an outage, not the token's fault). One mapping
 * for the access tokens jwt-verifier.ts takes and the ID tokens of a sign-in (id-token.ts).
 */

/** jose's codes for what is wrong with the token itself; any other failure is the key set's. */
const TOKEN_FAULTS = new Set([
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_EXPIRED',
  'ERR_JWT_INVALID',
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
]);

/** A token's fault: jose's code, the claim it names (if any), and both as one reason for the log. */
export interface TokenFault {
  code: string;
  claim?: string;
  /** `code`, or `code (claim)` when a claim is named. */
  reason: string;
}

/** The token's fault a jose error names, or undefined when the error is not the token's. */
export function tokenFault(error: unknown): TokenFault | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (typeof code !== 'string' || !TOKEN_FAULTS.has(code)) return undefined;
  const claim = (error as { claim?: unknown }).claim;
  if (typeof claim !== 'string') return { code, reason: code };
  return { code, claim, reason: `${code} (${claim})` };
}
