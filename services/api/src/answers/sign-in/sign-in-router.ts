/**
 * The sign-in's routes, mounted at `/answers`:
 *
 * - `GET /sign-in?return=<path>`: a new sign-in, its secrets in the pending cookie, 302 to the issuer;
 *   a `return` that is not an answer-page path of this origin is refused (400);
 * - `GET /callback?code&state`: the state checked against the pending cookie (which is then spent),
 *   the code exchanged, the ID token verified, the session cookie set, 303 back; an issuer's
 *   `error` (the answerer declined, say) is a short page saying so; a step-up (step-up-sign-in.ts)
 *   whose new sign-in still falls short of the question's requirement is a 403 page saying what
 *   is missing, the new session kept;
 * - `POST /sign-out` (form field `csrf`): the session cookie cleared, once the CSRF check passes
 *   (sign-out.ts, shared with the development sign-in);
 * - any other `GET` under `/answers` with a session past its refresh (ANSWER_SESSION_REFRESH_MS):
 *   303 to `/sign-in?return=<that page>`, so the person goes through the issuer again (without a
 *   prompt while their session there holds) and the page reads their groups anew before it shows
 *   them anything. A post with such a session finds no answerer (signed-in-requests.ts).
 *
 * A refused sign-in is 400 (its reason logged, not shown), an issuer that cannot be reached 503.
 */
import { Router, type Request, type Response } from 'express';
import { AuthorizationServerUnavailable } from '../../../../../lib/auth/auth-errors';
import type { OidcRelyingParty } from '../../../../../lib/auth/oidc-relying-party';
import { SignInRefused } from '../../../../../lib/auth/sign-in-refused';
import type { Logger } from '../../../../../lib/log';
import type { AnswerSessions } from './answer-session';
import { MAX_COOKIE_BYTES, PENDING_SIGN_IN_TTL_MS, type AnswerCookies } from './cookies';
import { stateMatches, type PendingSignIns } from './pending-sign-in';
import { DEFAULT_RETURN_PATH, safeReturnPath } from './return-path';
import { escapeHtml, issuerUnavailable, NO_STORE_HEADERS, signInPage, startAgainLink } from './sign-in-pages';
import { logSignInWithoutGroups } from './no-groups-log';
import { signOutHandlers } from './sign-out';
import { refusedStepUp } from './step-up-sign-in';

export interface SignInRouterDeps {
  issuer: string;
  publicOrigin: string;
  sessionTtlMs: number;
  relyingParty: OidcRelyingParty;
  /** What decides a sign-in's groups (ANSWER_GROUPS_CLAIM, ANSWER_OIDC_SCOPES): named when it brings none. */
  groupsReading: { groupsClaim: string; scopes: readonly string[] };
  pending: PendingSignIns;
  sessions: AnswerSessions;
  cookies: AnswerCookies;
  /** Whether a post may change this browser's session (csrf.ts, with the session's token). */
  checkCsrf(req: Request, token: unknown): boolean;
  log: Logger;
  now: () => number;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The sign-in's own routes, which a session due for refresh is never sent away from. */
const SIGN_IN_ROUTES = new Set(['/sign-in', '/callback', '/sign-out']);

export function signInRouter(deps: SignInRouterDeps): Router {
  const router = Router();
  const { log, cookies } = deps;

  router.get(/.*/, (req, res, next) => {
    if (SIGN_IN_ROUTES.has(req.path)) return next();
    const session = deps.sessions.open(cookies.read(req, 'session'));
    if (session === undefined || deps.sessions.isFresh(session)) return next();
    const returnTo = safeReturnPath(req.originalUrl, deps.publicOrigin);
    if (returnTo === undefined) return next();
    log.info({ answerer: session.identity.id }, 'answer sign-in: session due for refresh, through the issuer again');
    res.set(NO_STORE_HEADERS).redirect(303, `/answers/sign-in?return=${encodeURIComponent(returnTo)}`);
  });

  const unavailable = (res: Response, error: AuthorizationServerUnavailable) => issuerUnavailable(res, log, error);

  router.get('/sign-in', async (req, res) => {
    const returnTo = safeReturnPath(req.query.return, deps.publicOrigin);
    if (returnTo === undefined) {
      log.warn('answer sign-in refused: return is not an answer-page path of this origin');
      return signInPage(res, 400, 'Sign-in refused', '<p>That return address is not a page of this service.</p>');
    }
    let begun: Awaited<ReturnType<OidcRelyingParty['begin']>>;
    try {
      begun = await deps.relyingParty.begin();
    } catch (error) {
      if (error instanceof AuthorizationServerUnavailable) return unavailable(res, error);
      throw error;
    }
    cookies.set(res, 'pending-sign-in', deps.pending.seal(begun.pending, returnTo), PENDING_SIGN_IN_TTL_MS);
    res.set(NO_STORE_HEADERS).redirect(302, begun.url);
  });

  router.get('/callback', async (req, res) => {
    const pending = deps.pending.open(cookies.read(req, 'pending-sign-in'));
    const returnTo = pending?.returnTo ?? DEFAULT_RETURN_PATH;
    const stateOk = pending !== undefined && stateMatches(pending, req.query.state);
    const issuerError = text(req.query.error);
    if (issuerError !== undefined) {
      if (stateOk) cookies.clear(res, 'pending-sign-in');
      log.info({ error: issuerError.slice(0, 64) }, 'answer sign-in: the issuer answered with an error');
      const declined = issuerError === 'access_denied';
      return signInPage(
        res,
        declined ? 403 : 400,
        declined ? 'Sign-in declined' : 'Sign-in failed',
        `<p>The sign-in service answered <code>${escapeHtml(issuerError.slice(0, 64))}</code>` +
          `${declined ? ': access was denied, so you are not signed in' : ''}.</p>${startAgainLink(returnTo)}`,
      );
    }
    // No pending sign-in, or another one's state: someone else's callback (login CSRF), or a stale tab.
    if (!pending || !stateOk) {
      log.warn({ pending: pending !== undefined }, 'answer sign-in refused: no pending sign-in with this state');
      return signInPage(
        res,
        400,
        'Sign-in refused',
        '<p>This sign-in expired, was started in another browser or tab, or was already used.</p>' +
          startAgainLink(returnTo),
      );
    }
    cookies.clear(res, 'pending-sign-in'); // spent, whatever comes next
    const iss = text(req.query.iss);
    const code = text(req.query.code);
    if ((iss !== undefined && iss !== deps.issuer) || code === undefined || code.length > 4096) {
      log.warn({ iss: iss?.slice(0, 200) }, 'answer sign-in refused: no code, or from another issuer (RFC 9207)');
      return signInPage(
        res,
        400,
        'Sign-in refused',
        `<p>The sign-in did not come back as it should.</p>${startAgainLink(returnTo)}`,
      );
    }
    try {
      const { identity, authentication } = await deps.relyingParty.complete(code, pending);
      const { value } = deps.sessions.mint(identity, authentication);
      if (value.length > MAX_COOKIE_BYTES - 64) {
        log.warn(
          { answerer: identity.id, groups: identity.groups.length },
          'answer sign-in: identity too large for a cookie',
        );
        return signInPage(
          res,
          400,
          'Sign-in failed',
          '<p>Your account names too many groups to keep you signed in.</p>',
        );
      }
      cookies.set(res, 'session', value, deps.sessionTtlMs);
      log.info({ answerer: identity.id, ...authentication }, 'answer sign-in');
      logSignInWithoutGroups(log, identity, deps.groupsReading);
      if (refusedStepUp(res, pending, authentication, deps.now(), log)) return;
      res.set(NO_STORE_HEADERS).redirect(303, pending.returnTo);
    } catch (error) {
      if (error instanceof AuthorizationServerUnavailable) return unavailable(res, error);
      if (!(error instanceof SignInRefused)) throw error;
      log.warn({ reason: error.reason }, 'answer sign-in refused');
      signInPage(res, 400, 'Sign-in refused', `<p>The sign-in could not be completed.</p>${startAgainLink(returnTo)}`);
    }
  });

  router.post(
    '/sign-out',
    ...signOutHandlers({ sessions: deps.sessions, cookies, checkCsrf: deps.checkCsrf, page: signInPage, log }),
  );

  return router;
}
