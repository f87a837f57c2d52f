/**
 * The admin API's bearer token gate (RFC 6750), over lib/auth/bearer-token.ts's constant-time
 * check; the codec endpoint and /metrics use the same check.
 */
import type { RequestHandler, Response } from 'express';
import { bearerTokenCheck } from '../../../../lib/auth/bearer-token';
import { adminError } from './admin-errors';

export { bearerTokenCheck, tokenMatcher, type BearerVerdict } from '../../../../lib/auth/bearer-token';

const REALM = 'durable-mcp admin';

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
