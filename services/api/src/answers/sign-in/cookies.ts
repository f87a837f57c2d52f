/**
 * The answer page's cookies: the pending sign-in (ten minutes, from `/answers/sign-in` to the
 * callback), the development sign-in's form (as long, from showing it to its post) and the
 * session. Each is HttpOnly (no script reads them), scoped to `/answers`, and SameSite=Lax: the
 * callback arrives as a top-level navigation from the issuer's site, and an answerer follows a
 * link to a question from mail or chat, neither of which a Strict cookie would go with; what
 * changes state is a POST, which Lax keeps cross-site posts from and the CSRF check guards
 * besides. Over https (express's `req.secure`, which believes X-Forwarded-Proto only from
 * TRUST_PROXY's proxies) they are Secure and named `__Secure-…`, so a plain-http response cannot
 * set one the browser would send back; `__Host-` would need `Path=/`.
 */
import type { CookieOptions, Request, Response } from 'express';
import { cookieValue } from '../../codec/codec-session';

export type CookieKind = 'pending-sign-in' | 'dev-sign-in' | 'session';

const BASE_NAMES: Record<CookieKind, string> = {
  'pending-sign-in': 'durable_mcp_answer_sign_in',
  'dev-sign-in': 'durable_mcp_answer_dev_sign_in',
  session: 'durable_mcp_answer_session',
};

/** How long a started sign-in may take to come back (or a shown sign-in form to be posted). */
export const PENDING_SIGN_IN_TTL_MS = 10 * 60_000;
/** The cookies' path: every answer page route and nothing else. */
export const COOKIE_PATH = '/answers';
/** What a browser keeps of one cookie (RFC 6265 §6.1 asks for at least 4096 bytes, name included). */
export const MAX_COOKIE_BYTES = 4000;

/** The cookie's name for this request: `__Secure-` prefixed over https. */
export const cookieName = (req: Request, kind: CookieKind): string =>
  req.secure ? `__Secure-${BASE_NAMES[kind]}` : BASE_NAMES[kind];

export function cookieOptions(req: Request, maxAgeMs: number): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: req.secure, path: COOKIE_PATH, maxAge: maxAgeMs };
}

/** The cookie's value as this request carries it, under the name its scheme uses. */
export const readCookie = (req: Request, kind: CookieKind): string | undefined =>
  cookieValue(req, cookieName(req, kind));

export function setCookie(req: Request, res: Response, kind: CookieKind, value: string, maxAgeMs: number): void {
  res.cookie(cookieName(req, kind), value, cookieOptions(req, maxAgeMs));
}

export function clearCookie(req: Request, res: Response, kind: CookieKind): void {
  const { maxAge: _maxAge, ...attributes } = cookieOptions(req, 0);
  res.clearCookie(cookieName(req, kind), attributes);
}
