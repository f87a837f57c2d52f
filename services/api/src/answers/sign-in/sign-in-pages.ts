/**
 * The few pages the sign-in itself shows (a refusal, an issuer that is down, signed out): plain
 * HTML that loads nothing, runs no script and may not be framed, never cached, and sends no
 * Referer onward (the callback's URL carries a code). What the issuer or the request said is
 * escaped; why a sign-in failed in detail is for the log only.
 */
import type { Response } from 'express';
import type { AuthorizationServerUnavailable } from '../../../../../lib/auth/auth-errors';
import type { Logger } from '../../../../../lib/log';

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Headers every sign-in response carries, redirects included. */
export const NO_STORE_HEADERS = {
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
} as const;

export function signInPage(res: Response, status: number, title: string, bodyHtml: string): void {
  res
    .status(status)
    .set({
      ...NO_STORE_HEADERS,
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy':
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'X-Frame-Options': 'DENY',
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · durable-mcp</title>` +
        '<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}</style>' +
        `</head><body><main><h1>${escapeHtml(title)}</h1>${bodyHtml}</main></body></html>`,
    );
}

/** A link that starts the sign-in again, back to `returnTo`. */
export const startAgainLink = (returnTo: string): string =>
  `<p><a href="/answers/sign-in?return=${escapeHtml(encodeURIComponent(returnTo))}">Sign in again</a>.</p>`;

/** The issuer cannot be reached (or its metadata used): 503, to try again shortly. */
export function issuerUnavailable(res: Response, log: Logger, error: AuthorizationServerUnavailable): void {
  log.error({ issuer: error.issuer, err: error }, 'answer sign-in: the issuer cannot be used');
  res.set('Retry-After', '5');
  signInPage(res, 503, 'Sign-in unavailable', '<p>The sign-in service cannot be reached. Try again shortly.</p>');
}
