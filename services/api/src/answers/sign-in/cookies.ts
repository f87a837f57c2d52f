/**
 * The answer page's cookies: the pending sign-in (ten minutes, from `/answers/sign-in` to the
 * callback), the development sign-in's form (as long, from showing it to its post) and the
 * session. Each is HttpOnly (no script reads them) and SameSite=Lax: the callback arrives as a
 * top-level navigation from the issuer's site, and an answerer follows a link to a question from
 * mail or chat, neither of which a Strict cookie would go with; what changes state is a POST,
 * which Lax keeps cross-site posts from and the CSRF check guards besides.
 *
 * Whether they are Secure follows ANSWER_PUBLIC_URL, never the request: with an https public
 * origin every cookie is Secure and named `__Host-…`, even when the request reached the API as
 * plain http (a TLS-terminating proxy the API was not told to trust with TRUST_PROXY), so a
 * plain-http response can neither set one a browser keeps nor be sent one. `__Host-` also means
 * no Domain (no sibling host shares them) and `Path=/`: the cookies go with every request to the
 * origin, and only the answer page reads them. The names are the page's own (the codec endpoint's
 * cookie is `durable_mcp_codec`). An http public origin is loopback only (config refuses any
 * other): there the names are bare and the cookies not Secure.
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
/** The cookies' path: `__Host-` requires `/`. */
export const COOKIE_PATH = '/';
/** What a browser keeps of one cookie (RFC 6265 §6.1 asks for at least 4096 bytes, name included). */
export const MAX_COOKIE_BYTES = 4000;

export interface AnswerCookies {
  /** The cookie's name: `__Host-` prefixed under an https public origin. */
  name(kind: CookieKind): string;
  /** The cookie's value as the request carries it. */
  read(req: Request, kind: CookieKind): string | undefined;
  set(res: Response, kind: CookieKind, value: string, maxAgeMs: number): void;
  clear(res: Response, kind: CookieKind): void;
}

/** The cookies of the answer page served at `publicOrigin` (ANSWER_PUBLIC_URL). */
export function answerCookies(publicOrigin: string): AnswerCookies {
  const secure = new URL(publicOrigin).protocol === 'https:';
  const name = (kind: CookieKind) => (secure ? `__Host-${BASE_NAMES[kind]}` : BASE_NAMES[kind]);
  const options = (maxAgeMs: number): CookieOptions => ({
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: COOKIE_PATH,
    maxAge: maxAgeMs,
  });
  return {
    name,
    read: (req, kind) => cookieValue(req, name(kind)),
    set(res, kind, value, maxAgeMs) {
      res.cookie(name(kind), value, options(maxAgeMs));
    },
    clear(res, kind) {
      const { maxAge: _maxAge, ...attributes } = options(0);
      res.clearCookie(name(kind), attributes);
    },
  };
}
