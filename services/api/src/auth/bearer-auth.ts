/**
 * The admin API's bearer token gate (RFC 6750), over lib/auth/bearer-token.ts's constant-time
 * check; the codec endpoint and /metrics use the same check. A wrong token is a guess
 * (token-guesses.ts): too many from one client address and it gets 429 for a while.
 */
import type { Request, RequestHandler, Response } from 'express';
import { bearerTokenCheck } from '../../../../lib/auth/bearer-token';
import type { Logger } from '../../../../lib/log';
import { operatorError } from '../http/operator-error';
import { tokenGuessLockout, type TokenGuesses } from './token-guesses';

export { bearerTokenCheck, tokenMatcher, type BearerVerdict } from '../../../../lib/auth/bearer-token';

const REALM = 'durable-mcp admin';

/** The 401 of a missing or wrong credential, with its RFC 6750 challenge. */
export function refuseBearer(res: Response, realm: string, invalid: boolean, message: string): void {
  res.set('WWW-Authenticate', invalid ? `Bearer realm="${realm}", error="invalid_token"` : `Bearer realm="${realm}"`);
  operatorError(res, 401, 'unauthorized', message);
}

/** The 429 of a client address that sent too many wrong tokens, as /admin and /codec answer it. */
export function refuseGuesses(res: Response, retryAfterS: number): void {
  operatorError(
    res,
    429,
    'too_many_attempts',
    `Too many wrong tokens from this address: try again in ${retryAfterS} s (ADMIN_TOKEN_MAX_FAILURES)`,
  );
}

/** Counts a wrong token as a guess of this request's client, logging the one that locks it out. */
export function countGuess(guesses: TokenGuesses, log: Logger, req: Request, where: string): void {
  if (guesses.failed(req)) log.warn({ client: req.ip, where }, 'too many wrong tokens: client address locked out');
}

/**
 * Lets a request through only with `Authorization: Bearer <token>`; 401 otherwise, and a wrong
 * token counts as a guess of its client, which past the limit gets 429 before its token is read.
 */
export function bearerAuth(token: string, guesses: TokenGuesses, log: Logger): RequestHandler[] {
  const check = bearerTokenCheck(token);
  return [
    tokenGuessLockout(guesses, refuseGuesses),
    (req, res, next) => {
      const verdict = check(req.get('authorization'));
      if (verdict === 'valid') return next();
      const invalid = verdict === 'invalid';
      if (invalid) countGuess(guesses, log, req, 'admin');
      refuseBearer(
        res,
        REALM,
        invalid,
        invalid ? 'The bearer token is not valid' : 'An Authorization: Bearer <ADMIN_TOKEN> header is required',
      );
    },
  ];
}
