/**
 * The admin API's bearer token check (RFC 6750). Both tokens are hashed before they are compared,
 * so the comparison is constant-time whatever their lengths, and the response never says more
 * than "missing" or "invalid". The token itself is never logged. The codec endpoint accepts the
 * same token through `bearerTokenCheck`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { adminError } from './admin-errors';

const REALM = 'durable-mcp admin';
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

/** The 401 of a missing or wrong credential, with its RFC 6750 challenge. */
export function refuseBearer(res: Response, realm: string, invalid: boolean, message: string): void {
  res.set('WWW-Authenticate', invalid ? `Bearer realm="${realm}", error="invalid_token"` : `Bearer realm="${realm}"`);
  adminError(res, 401, 'unauthorized', message);
}

/** Lets a request through only with `Authorization: Bearer <token>`; 401 otherwise. */
export function bearerAuth(token: string): RequestHandler {
  const check = bearerTokenCheck(token);
  return (req, res, next) => {
    const verdict = check(req.get('authorization'));
    if (verdict === 'valid') return next();
    const invalid = verdict === 'invalid';
    refuseBearer(
      res,
      REALM,
      invalid,
      invalid ? 'The bearer token is not valid' : 'An Authorization: Bearer <ADMIN_TOKEN> header is required',
    );
  };
}
