/**
 * Cross-site request forgery, for every form the answer page posts (sign-out here, answers
 * elsewhere, the development sign-in's own form): a post is refused when the browser says it is
 * cross-site or its `Origin` is not the public origin (ANSWER_PUBLIC_URL; http/request-site.ts),
 * or when it lacks its token. A session's token is an HMAC of the answerer's key under the
 * session's random secret: it is the same on every page of one session, differs between sessions,
 * and cannot be made without the sealed cookie; a form posted before there is a session has a
 * secret of its own, sealed the same way (dev-sign-in-forms.ts). A request without `Origin` or
 * `Sec-Fetch-Site` (an older browser) still needs the token. Pure, and unit-tested beside it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SessionRecord } from './answer-session';

/** The token of a form whose secret is `secret` (32 random bytes, base64url), for what `binding` names. */
export const formTokenOf = (secret: string, binding: string): string =>
  createHmac('sha256', Buffer.from(secret, 'base64url')).update(binding).digest('base64url');

/** Whether `token` is `expected` (compared in constant time). */
export function formTokenMatches(expected: string, token: unknown): boolean {
  if (typeof token !== 'string') return false;
  const given = Buffer.from(token);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** The CSRF token of a session, for its forms' hidden field. */
export const csrfTokenOf = (session: SessionRecord): string =>
  formTokenOf(session.csrf, `durable-mcp/answer-csrf|${session.identity.id}`);

/** Whether `token` is the session's CSRF token (compared in constant time). */
export const tokenMatches = (session: SessionRecord, token: unknown): boolean =>
  formTokenMatches(csrfTokenOf(session), token);
