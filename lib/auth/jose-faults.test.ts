import { errors } from 'jose';
import { tokenFault } from './jose-faults';

describe("a jose error's fault", () => {
  it('is the token’s for a bad signature, algorithm, claim or key id, with the claim named', () => {
    expect(tokenFault(new errors.JWSSignatureVerificationFailed())).toEqual({
      code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
      reason: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
    });
    expect(tokenFault(new errors.JOSEAlgNotAllowed('alg'))?.code).toBe('ERR_JOSE_ALG_NOT_ALLOWED');
    expect(tokenFault(new errors.JOSENotSupported('crit'))?.code).toBe('ERR_JOSE_NOT_SUPPORTED');
    expect(tokenFault(new errors.JWTInvalid('not a JWT'))?.code).toBe('ERR_JWT_INVALID');
    expect(tokenFault(new errors.JWSInvalid('not a JWS'))?.code).toBe('ERR_JWS_INVALID');
    expect(tokenFault(new errors.JWKSNoMatchingKey())?.code).toBe('ERR_JWKS_NO_MATCHING_KEY');
    expect(tokenFault(new errors.JWKSMultipleMatchingKeys())?.code).toBe('ERR_JWKS_MULTIPLE_MATCHING_KEYS');
    expect(tokenFault(new errors.JWTClaimValidationFailed('unexpected "aud"', {}, 'aud', 'check_failed'))).toEqual({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
      claim: 'aud',
      reason: 'ERR_JWT_CLAIM_VALIDATION_FAILED (aud)',
    });
    expect(tokenFault(new errors.JWTExpired('"exp" claim timestamp check failed', {}, 'exp', 'check_failed'))).toEqual({
      code: 'ERR_JWT_EXPIRED',
      claim: 'exp',
      reason: 'ERR_JWT_EXPIRED (exp)',
    });
  });

  it('is not the token’s for a key set that cannot be fetched or read, nor for what is no jose error', () => {
    expect(tokenFault(new errors.JWKSTimeout())).toBeUndefined();
    expect(tokenFault(new errors.JWKSInvalid('not a key set'))).toBeUndefined();
    expect(tokenFault(new TypeError('fetch failed'))).toBeUndefined();
    expect(tokenFault({ code: 42 })).toBeUndefined();
    expect(tokenFault(undefined)).toBeUndefined();
  });
});
