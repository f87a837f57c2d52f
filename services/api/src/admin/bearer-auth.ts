/**
 * The admin API's bearer token check (RFC 6750). Both tokens are hashed before they are compared,
 * so the comparison is constant-time whatever their lengths, and the response never says more
 * than "missing" or "invalid". The token itself is never logged.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { adminError } from './admin-errors';

const REALM = 'durable-mcp admin';
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

function refuse(res: Response, invalid: boolean): void {
  res.set('WWW-Authenticate', invalid ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`);
  adminError(
    res,
    401,
    'unauthorized',
    invalid ? 'The bearer token is not valid' : 'An Authorization: Bearer <ADMIN_TOKEN> header is required',
  );
}

/** Lets a request through only with `Authorization: Bearer <token>`; 401 otherwise. */
export function bearerAuth(token: string): RequestHandler {
  const expected = digest(token);
  return (req, res, next) => {
    const match = /^Bearer +([\x21-\x7e]+) *$/i.exec(req.get('authorization') ?? '');
    if (!match) return refuse(res, false);
    if (!timingSafeEqual(digest(match[1]!), expected)) return refuse(res, true);
    next();
  };
}
