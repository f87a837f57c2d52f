/**
 * A shared-secret bearer token (RFC 6750) read from an `Authorization` header: the admin token,
 * the codec's encode token, the metrics token. Both sides are hashed before they are compared, so
 * the comparison is constant-time whatever their lengths; the verdict never says more than
 * "missing" or "invalid", and the token is never logged.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** What an `Authorization` header says of the token: none given, the token, or another. */
export type BearerVerdict = 'missing' | 'valid' | 'invalid';

/** Whether a candidate is `token`, compared in constant time. */
export function tokenMatcher(token: string): (candidate: string) => boolean {
  const expected = digest(token);
  return (candidate) => timingSafeEqual(digest(candidate), expected);
}

/** Reads an `Authorization: Bearer <token>` header against `token`, in constant time. */
export function bearerTokenCheck(token: string): (authorization: string | undefined) => BearerVerdict {
  const matches = tokenMatcher(token);
  return (authorization) => {
    const match = /^Bearer +([\x21-\x7e]+) *$/i.exec(authorization ?? '');
    if (!match) return 'missing';
    return matches(match[1]!) ? 'valid' : 'invalid';
  };
}
