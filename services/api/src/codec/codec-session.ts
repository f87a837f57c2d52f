/**
 * The codec endpoint's browser sign-in: a cookie that stands for the admin token, so the Temporal
 * Web UI, which can send a browser's cookies to a codec endpoint (`includeCredentials`) but no
 * header of ours, decodes payloads for an operator who signed in once at /codec/sign-in.
 *
 * The cookie is stateless, so any API replica accepts it: its expiry and an HMAC-SHA256 of it
 * under a key derived from ADMIN_TOKEN and CODEC_SESSION_EPOCH (`<expiresAtMs>.<mac>`). Changing
 * either revokes every cookie issued (every browser is signed out); otherwise a cookie lasts
 * CODEC_SESSION_TTL_MS (an hour by default). It is HttpOnly, SameSite=Strict and scoped to /codec:
 * sent only on requests from the same site (the UI and the API under one host name or registrable
 * domain), never readable by a script; and Secure when the sign-in came over https, which behind a
 * TLS-terminating proxy the API knows from X-Forwarded-Proto once TRUST_PROXY names the proxy.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, Request } from 'express';

export const SESSION_COOKIE = 'durable_mcp_codec';
const CLOCK_SLACK_MS = 60_000;

export interface CodecSessions {
  /** A new cookie value, valid for the session's lifetime from `now`. */
  mint(now?: number): string;
  /** Whether `value` is a cookie this token minted that has not expired. */
  verify(value: string, now?: number): boolean;
  /** The cookie's attributes (Secure when the request came over https, as express's `req.secure` says). */
  cookieOptions(req: Request): CookieOptions;
}

export function createCodecSessions(adminToken: string, ttlMs: number, epoch = ''): CodecSessions {
  // The epoch is the salt: none (the default) derives the key cookies had before there was one.
  const key = Buffer.from(hkdfSync('sha256', adminToken, Buffer.from(epoch), 'durable-mcp/codec-session', 32));
  const mac = (expiresAt: string) => createHmac('sha256', key).update(`codec-session|${expiresAt}`).digest();
  return {
    mint(now = Date.now()) {
      const expiresAt = String(now + ttlMs);
      return `${expiresAt}.${mac(expiresAt).toString('base64url')}`;
    },
    verify(value, now = Date.now()) {
      const match = /^(\d{1,16})\.([A-Za-z0-9_-]{43})$/.exec(value);
      if (!match) return false;
      const [, expiresAt, given] = match as unknown as [string, string, string];
      const expiry = Number(expiresAt);
      // A cookie that claims to last longer than a sign-in can was not minted under this TTL (a
      // minute's slack for replicas whose clocks differ).
      if (expiry <= now || expiry > now + ttlMs + CLOCK_SLACK_MS) return false;
      return timingSafeEqual(Buffer.from(given, 'base64url'), mac(expiresAt));
    },
    cookieOptions(req) {
      return { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/codec', maxAge: ttlMs };
    },
  };
}

/** The value of cookie `name` in the request's Cookie header, if it is there. */
export function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
