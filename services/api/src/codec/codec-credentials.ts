/**
 * Who may use the codec endpoint: a request passes when any one credential grants it. Two stand
 * for the admin token: `Authorization: Bearer <ADMIN_TOKEN>` (the CLI's `--codec-auth`, scripts)
 * and the sign-in cookie (a browser running the Temporal Web UI); a development stack adds a
 * connection from loopback (CODEC_TRUST_LOOPBACK). Another kind, such as
 * an OAuth access token carrying a codec scope, is one more `CodecCredential` in the list.
 *
 * A request no credential grants gets 401 with `WWW-Authenticate: Bearer`: "invalid" when it
 * carried a credential that was refused, "missing" otherwise. What was presented is never logged.
 * A refused bearer token is a guess (`onGuess`, token-guesses.ts); a refused sign-in cookie is not
 * (an expired or revoked one is no guess, and a browser sends it with every request).
 */
import type { Request, RequestHandler } from 'express';
import { isLoopbackHost } from '../../../../lib/loopback-host';
import { bearerTokenCheck, refuseBearer } from '../auth/bearer-auth';
import { cookieValue, SESSION_COOKIE, type CodecSessions } from './codec-session';

/**
 * One way to be let in: `granted` (and how, for the log), `refused` (presented but wrong; `guess`
 * when it was a token someone may be guessing), or `absent`.
 */
export type CodecCredential = (
  req: Request,
) => { verdict: 'granted'; by: string } | { verdict: 'refused'; guess?: boolean } | { verdict: 'absent' };

const REALM = 'durable-mcp codec';

/** `Authorization: Bearer <token>`, granted as `by` (for the log). */
function bearerCredential(token: string, by: string): CodecCredential {
  const check = bearerTokenCheck(token);
  return (req) => {
    const verdict = check(req.get('authorization'));
    if (verdict === 'valid') return { verdict: 'granted', by };
    return verdict === 'invalid' ? { verdict: 'refused', guess: true } : { verdict: 'absent' };
  };
}

export const adminTokenCredential = (token: string) => bearerCredential(token, 'admin-token');

/** POST /codec/encode's own credential (CODEC_ENCODE_TOKEN): the admin token does not grant it. */
export const encodeTokenCredential = (token: string) => bearerCredential(token, 'encode-token');

export function signInCookieCredential(sessions: CodecSessions): CodecCredential {
  return (req) => {
    const value = cookieValue(req, SESSION_COOKIE);
    if (value === undefined) return { verdict: 'absent' };
    return sessions.verify(value) ? { verdict: 'granted', by: 'sign-in' } : { verdict: 'refused' };
  };
}

/**
 * A connection from this machine's loopback address (CODEC_TRUST_LOOPBACK, a development stack's
 * alone): the connection's own peer address, never a forwarded one, and only where the
 * configuration has made sure no proxy stands in front (lib/config/codec-trust-loopback.ts).
 */
export function loopbackCredential(): CodecCredential {
  return (req) => {
    const peer = req.socket.remoteAddress;
    return peer !== undefined && isLoopbackHost(peer) ? { verdict: 'granted', by: 'loopback' } : { verdict: 'absent' };
  };
}

/**
 * Lets a request through when one of `credentials` grants it (`res.locals.codecCredential` says
 * which); 401 otherwise, after `onGuess` when a token it carried was refused.
 */
export function codecAuthorization(
  credentials: ReadonlyArray<CodecCredential>,
  onGuess: (req: Request) => void,
  missing = 'An Authorization: Bearer <ADMIN_TOKEN> header, or a browser signed in at /codec/sign-in, is required',
): RequestHandler {
  return (req, res, next) => {
    let refused = false;
    let guess = false;
    for (const credential of credentials) {
      const result = credential(req);
      if (result.verdict === 'granted') {
        res.locals.codecCredential = result.by;
        return next();
      }
      if (result.verdict === 'refused') {
        refused = true;
        guess ||= result.guess === true;
      }
    }
    if (guess) onGuess(req);
    refuseBearer(
      res,
      REALM,
      refused,
      refused
        ? 'The bearer token or the sign-in is not valid (a sign-in expires: sign in again at /codec/sign-in)'
        : missing,
    );
  };
}
