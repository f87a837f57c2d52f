/**
 * What the answer page asks of a request, whichever sign-in opened its session: who is signed in,
 * the CSRF token its forms carry, and whether a post may act for it. The OpenID Connect sign-in
 * and the development one open the same sealed session cookie (answer-session.ts), so the pages,
 * the CSRF check and sign-out never depend on how the person signed in.
 */
import type { Request } from 'express';
import type { AnswererIdentity } from '../../../../../lib/questions/question';
import type { AnswerSessions } from './answer-session';
import { readCookie } from './cookies';
import { crossSiteReason, requestSiteOf } from '../../http/request-site';
import { csrfTokenOf, tokenMatches } from './csrf';

export interface SignedInRequests {
  /** Who is signed in on this request; undefined without a session, or with one expired or altered. */
  answererOf(req: Request): AnswererIdentity | undefined;
  /** The CSRF token the answer page's forms carry for this request's session; undefined when signed out. */
  csrfTokenFor(req: Request): string | undefined;
  /** Whether a post may act for this request's session: same-site, from the public origin, with its token. */
  checkCsrf(req: Request, token: unknown): boolean;
}

/** Whether a request's own headers say it comes from `publicOrigin` (the token is checked apart). */
export const sameSite = (req: Request, publicOrigin: string): boolean =>
  crossSiteReason(requestSiteOf(req), {
    isOwnOrigin: (origin) => origin === publicOrigin,
    described: 'ANSWER_PUBLIC_URL',
  }) === undefined;

export function signedInRequests(sessions: AnswerSessions, publicOrigin: string): SignedInRequests {
  const sessionOf = (req: Request) => sessions.open(readCookie(req, 'session'));
  return {
    answererOf: (req) => sessionOf(req)?.identity,
    csrfTokenFor(req) {
      const session = sessionOf(req);
      return session ? csrfTokenOf(session) : undefined;
    },
    checkCsrf(req, token) {
      if (!sameSite(req, publicOrigin)) return false;
      const session = sessionOf(req);
      return session !== undefined && tokenMatches(session, token);
    },
  };
}
