/**
 * The development sign-in's routes (ANSWER_DEV_SIGN_IN), mounted at `/answers`:
 *
 * - `GET /sign-in?return=<path>`: the form (dev-sign-in-page.ts), its secret in a cookie of its
 *   own (dev-sign-in-forms.ts); a `return` that is not an answer-page path of this origin is
 *   refused (400), as the OpenID Connect sign-in refuses it;
 * - `POST /sign-in`: refused (403) cross-site, from another origin, or without the form's token;
 *   a field out of bounds is the form again with its problem (422); otherwise the same session
 *   cookie the OpenID Connect callback sets, for the identity typed and the sign-in it says it
 *   was (`acr`, `amr`, signed in now: lib/auth/dev-answerer.ts), 303 back;
 * - `POST /sign-out`: as with OpenID Connect (sign-out.ts).
 *
 * There is no callback: nobody is asked who the person is, which is the point and the danger.
 */
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import {
  devAnswerer,
  devAuthentication,
  type DevSignInField,
  type DevSignInProblem,
} from '../../../../../lib/auth/dev-answerer';
import type { Logger } from '../../../../../lib/log';
import { CSRF_FIELD } from '../../../../../lib/questions/form-field-names';
import type { AnswerSessions } from './answer-session';
import { MAX_COOKIE_BYTES, PENDING_SIGN_IN_TTL_MS, type AnswerCookies } from './cookies';
import type { DevSignInForms } from './dev-sign-in-forms';
import { devSignInPage, renderDevSignIn, RETURN_FIELD, signInAgainLink } from './dev-sign-in-page';
import { safeReturnPath } from './return-path';
import { sameSite } from './signed-in-requests';
import { escapeHtml } from './sign-in-pages';
import { signOutHandlers } from './sign-out';

export interface DevSignInRouterDeps {
  publicOrigin: string;
  sessionTtlMs: number;
  forms: DevSignInForms;
  sessions: AnswerSessions;
  cookies: AnswerCookies;
  checkCsrf(req: Request, token: unknown): boolean;
  log: Logger;
  now: () => number;
}

/** The form's post holds three short fields and two tokens; a group list fills the rest. */
const MAX_FORM_BYTES = 32 * 1024;

const posted = (body: unknown): Record<string, unknown> =>
  typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};

const valuesOf = (fields: Record<string, unknown>): Partial<Record<DevSignInField, string>> =>
  Object.fromEntries(
    (['subject', 'name', 'groups', 'acr', 'amr'] as const).flatMap((name) =>
      typeof fields[name] === 'string' ? [[name, fields[name]]] : [],
    ),
  );

export function devSignInRouter(deps: DevSignInRouterDeps): Router {
  const router = Router();
  const { log, publicOrigin, cookies } = deps;

  const refusedReturn = (res: Response) =>
    devSignInPage(res, 400, 'Sign-in refused', '<p>That return address is not a page of this service.</p>');

  router.get('/sign-in', (req, res) => {
    const returnTo = safeReturnPath(req.query.return, publicOrigin);
    if (returnTo === undefined) return refusedReturn(res);
    const { cookie, token } = deps.forms.issue();
    cookies.set(res, 'dev-sign-in', cookie, PENDING_SIGN_IN_TTL_MS);
    res.status(200).type('html').send(renderDevSignIn({ token, returnTo }));
  });

  router.post('/sign-in', express.urlencoded({ extended: false, limit: MAX_FORM_BYTES }), (req, res) => {
    const fields = posted(req.body);
    const formCookie = cookies.read(req, 'dev-sign-in');
    // The cookie is SameSite=Lax, so a cross-site post lacks it; the Origin check says so first.
    if (!sameSite(req, publicOrigin) || !deps.forms.matches(formCookie, fields[CSRF_FIELD])) {
      log.warn('answer sign-in (development) refused: cross-site, or without the form’s token');
      return devSignInPage(
        res,
        403,
        'Sign-in refused',
        `<p>This sign-in did not come from the form at <code>${escapeHtml(publicOrigin)}/answers/sign-in</code>, or that form expired.</p>${signInAgainLink()}`,
      );
    }
    const returnTo = safeReturnPath(fields[RETURN_FIELD], publicOrigin);
    if (returnTo === undefined) return refusedReturn(res);
    const token = deps.forms.tokenOf(formCookie)!;
    const again = (problems: DevSignInProblem[]) =>
      res
        .status(422)
        .type('html')
        .send(renderDevSignIn({ token, returnTo, values: valuesOf(fields), problems }));

    const typed = devAnswerer(fields);
    const signedIn = devAuthentication(fields, deps.now());
    const problems = [
      ...('problems' in typed ? typed.problems : []),
      ...('problems' in signedIn ? signedIn.problems : []),
    ];
    if ('problems' in typed || 'problems' in signedIn) return again(problems);
    const { identity } = typed;
    const { value } = deps.sessions.mint(identity, signedIn.authentication);
    if (value.length > MAX_COOKIE_BYTES - 64)
      return again([{ field: 'groups', message: 'Too many groups, or too long, to keep you signed in.' }]);
    cookies.set(res, 'session', value, deps.sessionTtlMs);
    cookies.clear(res, 'dev-sign-in'); // spent: another sign-in shows the form again
    log.info({ answerer: identity.id, groups: identity.groups.length }, 'answer sign-in (development)');
    res.redirect(303, returnTo);
  });

  router.post(
    '/sign-out',
    ...signOutHandlers({
      sessions: deps.sessions,
      cookies,
      checkCsrf: deps.checkCsrf,
      page: devSignInPage,
      log,
      afterSignOut: signInAgainLink(),
    }),
  );

  // A form past its bound, or unreadable: said on the sign-in's page, not as an answer's.
  router.use((error: { status?: number; type?: string }, _req: Request, res: Response, next: NextFunction) => {
    if (error.type === 'entity.too.large')
      return devSignInPage(res, 413, 'Sign-in too large', `<p>The form is at most ${MAX_FORM_BYTES} bytes.</p>`);
    if (error.status === 400)
      return devSignInPage(res, 400, 'Sign-in unreadable', '<p>The form could not be read.</p>');
    next(error);
  });
  return router;
}
