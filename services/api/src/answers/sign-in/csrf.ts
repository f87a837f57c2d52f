/**
 * Cross-site request forgery, for every form the answer page posts (sign-out here, answers
 * elsewhere): a post is refused when the browser says it is cross-site (`Sec-Fetch-Site`), when
 * its `Origin` is not the public origin (ANSWER_PUBLIC_URL), or when it lacks the session's
 * token. The token is an HMAC of the answerer's key under the session's random secret: it is the
 * same on every page of one session, differs between sessions, and cannot be made without the
 * sealed cookie. A request without `Origin` or `Sec-Fetch-Site` (an older browser) still needs
 * the token. Pure, and unit-tested beside it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SessionRecord } from './answer-session';

/** The CSRF token of a session, for its forms' hidden field. */
export const csrfTokenOf = (session: SessionRecord): string =>
  createHmac('sha256', Buffer.from(session.csrf, 'base64url'))
    .update(`durable-mcp/answer-csrf|${session.identity.id}`)
    .digest('base64url');

/** The headers a browser sends about where a request comes from. */
export interface RequestSite {
  origin?: string;
  secFetchSite?: string;
}

/**
 * Why a request's site is refused, or undefined when it may be the answer page's own. The page's
 * `Referrer-Policy: no-referrer` makes a browser send `Origin: null` with its own form posts, so
 * `null` is taken only when `Sec-Fetch-Site` says the post came from this very origin.
 */
export function crossSiteReason(site: RequestSite, publicOrigin: string): string | undefined {
  const fetchSite = site.secFetchSite?.toLowerCase();
  if (fetchSite === 'cross-site') return 'Sec-Fetch-Site: cross-site';
  if (site.origin === 'null' && fetchSite === 'same-origin') return undefined;
  if (site.origin !== undefined && site.origin !== publicOrigin) return 'Origin is not ANSWER_PUBLIC_URL';
  return undefined;
}

/** Whether `token` is the session's CSRF token (compared in constant time). */
export function tokenMatches(session: SessionRecord, token: unknown): boolean {
  if (typeof token !== 'string') return false;
  const given = Buffer.from(token);
  const expected = Buffer.from(csrfTokenOf(session));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
