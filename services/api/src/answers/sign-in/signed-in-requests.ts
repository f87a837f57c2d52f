/**
 * What the answer page asks of a request, whichever sign-in opened its session: who is signed in,
 * the CSRF token its forms carry, and whether a post may act for it. The OpenID Connect sign-in
 * and the development one open the same kind of sealed session cookie (answer-session.ts, each
 * under its own binding), so the pages, the CSRF check and sign-out never depend on how the
 * person signed in. A session past its refresh (ANSWER_SESSION_REFRESH_MS) acts for nobody: no
 * answerer, no form token, until the person has been through the issuer again; only its sign-out
 * still passes the CSRF check. The answerer carries how they signed in (`authTime`, `acr`, `amr`,
 * as the ID token said), which a question's `requireSignIn` is judged against and the evidence log
 * records.
 */
import type { Request } from 'express';
import type { AnswererIdentity } from '../../../../../lib/questions/question';
import type { AnswerSessions, SessionRecord } from './answer-session';
import type { AnswerCookies } from './cookies';
import { crossSiteReason, requestSiteOf } from '../../http/request-site';
import { csrfTokenOf, tokenMatches } from './csrf';

export interface SignedInRequests {
  /**
   * Who is signed in on this request, with how they signed in; undefined without a session, or
   * with one expired, altered or due for refresh.
   */
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

/** A session's person, with how they authenticated (lib/questions/step-up.ts) as part of their identity. */
export const answererOfSession = ({ identity, authentication }: SessionRecord): AnswererIdentity => ({
  ...identity,
  ...(authentication.authTime !== undefined ? { authTime: authentication.authTime } : {}),
  ...(authentication.acr !== undefined ? { acr: authentication.acr } : {}),
  ...(authentication.amr !== undefined ? { amr: [...authentication.amr] } : {}),
});

export function signedInRequests(
  sessions: AnswerSessions,
  cookies: AnswerCookies,
  publicOrigin: string,
): SignedInRequests {
  const sessionOf = (req: Request) => sessions.open(cookies.read(req, 'session'));
  const freshSessionOf = (req: Request) => {
    const session = sessionOf(req);
    return session && sessions.isFresh(session) ? session : undefined;
  };
  return {
    answererOf(req) {
      const session = freshSessionOf(req);
      return session ? answererOfSession(session) : undefined;
    },
    csrfTokenFor(req) {
      const session = freshSessionOf(req);
      return session ? csrfTokenOf(session) : undefined;
    },
    checkCsrf(req, token) {
      if (!sameSite(req, publicOrigin)) return false;
      const session = sessionOf(req);
      return session !== undefined && tokenMatches(session, token);
    },
  };
}
