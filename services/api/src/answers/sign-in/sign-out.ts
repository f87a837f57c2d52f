/**
 * `POST /sign-out` (form field `csrf`), the same for every sign-in: the session cookie cleared,
 * once the CSRF check passes. Without a session there is nothing to forge, so a browser whose
 * session already ended is simply told it is signed out; with one, only the answer page may end
 * it, so no link or other site can sign anyone out. Each sign-in shows the outcome in its own pages.
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from '../../../../../lib/log';
import type { AnswerSessions } from './answer-session';
import type { AnswerCookies } from './cookies';

/** Writes one of a sign-in's short pages: its status, title and body (markup the sign-in wrote itself). */
export type SignInPageWriter = (res: Response, status: number, title: string, bodyHtml: string) => void;

export interface SignOutDeps {
  sessions: AnswerSessions;
  cookies: AnswerCookies;
  checkCsrf(req: Request, token: unknown): boolean;
  page: SignInPageWriter;
  log: Logger;
  /** Markup after the signed-out sentence (the development sign-in's way back in). */
  afterSignOut?: string;
}

export function signOutHandlers(deps: SignOutDeps): RequestHandler[] {
  return [
    express.urlencoded({ extended: false, limit: '4kb' }),
    (req, res) => {
      const token = (req.body as Record<string, unknown> | undefined)?.csrf;
      const signedIn = deps.sessions.open(deps.cookies.read(req, 'session')) !== undefined;
      if (signedIn && !deps.checkCsrf(req, token)) {
        deps.log.warn('answer sign-out refused: cross-site or without the CSRF token');
        return deps.page(res, 403, 'Sign-out refused', '<p>This request did not come from the answer page.</p>');
      }
      deps.cookies.clear(res, 'session');
      deps.page(
        res,
        200,
        'Signed out',
        `<p>This browser is no longer signed in to answer questions.</p>${deps.afterSignOut ?? ''}`,
      );
    },
  ];
}
