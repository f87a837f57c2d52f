/**
 * The codec endpoint's sign-in for browsers, as HTML pages an operator opens beside the Temporal
 * Web UI:
 *
 * - `GET /codec/sign-in`: a form asking for the admin token;
 * - `POST /codec/sign-in` (form field `token`): the token right, sets the sign-in cookie
 *   (codec-session.ts) and says where to go next; wrong, 401 and the form again, and a guess of
 *   its client counted (auth/token-guesses.ts): past ADMIN_TOKEN_MAX_FAILURES, 429 with
 *   Retry-After before the token is read;
 * - `POST /codec/sign-out`: clears this browser's cookie (CODEC_SESSION_EPOCH revokes every one).
 *
 * Both posts are refused (403) before anything is read or counted when the browser says they come
 * from another site (http/request-site.ts): otherwise any page the operator visits could post ten
 * wrong tokens and lock the operator's address (or a whole NAT) out of /admin and /codec, or sign
 * the operator out.
 *
 * The pages load nothing and run no script (a Content-Security-Policy says so), and may not be
 * framed. The token is never logged; a refused sign-in is.
 */
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from '../../../../lib/log';
import { countGuess, tokenMatcher } from '../auth/bearer-auth';
import type { TokenGuesses } from '../auth/token-guesses';
import { crossSiteReason, requestSiteOf } from '../http/request-site';
import { SESSION_COOKIE, type CodecSessions } from './codec-session';

export interface CodecSignInDeps {
  token: string;
  sessions: CodecSessions;
  sessionTtlMs: number;
  /** The Temporal Web UI to go back to, when known (TEMPORAL_UI_URL). */
  temporalUiUrl?: string;
  /** Wrong tokens per client address, shared with /admin and the codec's routes. */
  guesses: TokenGuesses;
  log: Logger;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · durable-mcp</title>` +
        '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}' +
        'input{width:100%;padding:.4rem;margin:.3rem 0 1rem}button{padding:.4rem 1.2rem}</style></head>' +
        `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
    );
}

/** A sign-in's lifetime as the pages say it: `45 minutes`, `1 hour`, `8 hours`. */
function spelledDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.round(minutes / 6) / 10;
  return `${hours} hour${hours === 1 ? '' : 's'}`;
}

const FORM =
  '<form method="post" action="sign-in"><label for="token">Admin token (ADMIN_TOKEN)</label>' +
  '<input id="token" name="token" type="password" autocomplete="current-password" required autofocus>' +
  '<button type="submit">Sign in</button></form>';

/** The page's own origin is the one its Host names (the Host check has made it one of this server's). */
const ownOriginOf = (req: Request) => ({
  isOwnOrigin: (origin: string) => {
    try {
      return new URL(origin).host === req.get('host');
    } catch {
      return false;
    }
  },
  described: 'this server',
});

/** Refuses a post another site's page made, saying why; counted nowhere. */
function refuseCrossSite(log: Logger): RequestHandler {
  return (req, res, next) => {
    const reason = crossSiteReason(requestSiteOf(req), ownOriginOf(req));
    if (reason === undefined) return next();
    log.warn({ client: req.ip, path: req.path, reason }, 'codec form post from another site refused');
    page(
      res,
      403,
      'Refused',
      '<p>This form can only be sent from its own page. Open the sign-in page and try again.</p>',
    );
  };
}

export function codecSignInRouter(deps: CodecSignInDeps): Router {
  const router = Router();
  const sameSiteOnly = refuseCrossSite(deps.log);
  const matches = tokenMatcher(deps.token);
  const lifetime = spelledDuration(deps.sessionTtlMs);
  const back = deps.temporalUiUrl
    ? `<p><a href="${escapeHtml(deps.temporalUiUrl)}">Back to the Temporal Web UI</a>.</p>`
    : '<p>Go back to the Temporal Web UI.</p>';

  router.get('/sign-in', (_req, res) =>
    page(
      res,
      200,
      'Decode payloads in the Temporal Web UI',
      '<p>What this service puts into Temporal is encrypted. Signed in, this browser lets the Temporal Web UI ' +
        `decode it through this codec endpoint, for ${lifetime}.</p>${FORM}`,
    ),
  );

  router.post('/sign-in', sameSiteOnly, express.urlencoded({ extended: false, limit: '4kb' }), (req, res) => {
    const waitMs = deps.guesses.retryAfterMs(req);
    if (waitMs > 0) {
      const retryAfterS = Math.max(1, Math.ceil(waitMs / 1000));
      res.set('Retry-After', String(retryAfterS));
      return page(
        res,
        429,
        'Too many attempts',
        `<p>Too many wrong tokens came from this address. Try again in ${retryAfterS} seconds.</p>`,
      );
    }
    const token = (req.body as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string' || !matches(token)) {
      deps.log.warn({ client: req.ip }, 'codec sign-in refused: not the admin token');
      countGuess(deps.guesses, deps.log, req, 'codec/sign-in');
      return page(res, 401, 'Sign-in refused', `<p>That is not the admin token.</p>${FORM}`);
    }
    res.cookie(SESSION_COOKIE, deps.sessions.mint(), deps.sessions.cookieOptions(req));
    deps.log.info('codec sign-in');
    page(
      res,
      200,
      'Signed in',
      `<p>For ${lifetime} this browser may decode payloads through this endpoint. In the Temporal Web UI, ` +
        'the codec endpoint must be this one with "Include cross-origin credentials" on (docker compose sets both; ' +
        "with <code>npm run dev</code> turn the switch on in the UI's codec settings).</p>" +
        `${back}<form method="post" action="sign-out"><button type="submit">Sign out</button></form>`,
    );
  });

  router.post('/sign-out', sameSiteOnly, (req, res) => {
    const { maxAge: _maxAge, ...attributes } = deps.sessions.cookieOptions(req);
    res.clearCookie(SESSION_COOKIE, attributes);
    page(res, 200, 'Signed out', `<p>This browser no longer decodes payloads.</p>${back}`);
  });

  return router;
}
