// Pins the codec sign-in cookie: it verifies under the token that minted it, until it expires, and never forged.
import type { Request } from 'express';
import { cookieValue, createCodecSessions } from './codec-session';

const TOKEN = 'a'.repeat(40);
const TTL = 3_600_000;

describe('codec sign-in sessions', () => {
  const sessions = createCodecSessions(TOKEN, TTL);
  const now = 1_800_000_000_000;

  it('verifies a cookie it minted until it expires', () => {
    const cookie = sessions.mint(now);
    expect(sessions.verify(cookie, now)).toBe(true);
    expect(sessions.verify(cookie, now + TTL - 1)).toBe(true);
    expect(sessions.verify(cookie, now + TTL)).toBe(false);
  });

  it('refuses a cookie minted under another admin token, or with its expiry or mac altered', () => {
    const cookie = sessions.mint(now);
    expect(createCodecSessions('b'.repeat(40), TTL).verify(cookie, now)).toBe(false);
    const [expiry, mac] = cookie.split('.') as [string, string];
    expect(sessions.verify(`${Number(expiry) + 1000}.${mac}`, now)).toBe(false);
    // A character in the middle: the last one of base64url may carry only padding bits.
    const at = Math.floor(mac.length / 2);
    const altered = `${mac.slice(0, at)}${mac[at] === 'A' ? 'B' : 'A'}${mac.slice(at + 1)}`;
    expect(sessions.verify(`${expiry}.${altered}`, now)).toBe(false);
    expect(sessions.verify('', now)).toBe(false);
    expect(sessions.verify('garbage', now)).toBe(false);
  });

  it('refuses every cookie issued before CODEC_SESSION_EPOCH changed, and takes those issued after', () => {
    const before = sessions.mint(now);
    const rotated = createCodecSessions(TOKEN, TTL, '2026-08-01');
    expect(rotated.verify(before, now)).toBe(false);
    const after = rotated.mint(now);
    expect(rotated.verify(after, now)).toBe(true);
    expect(sessions.verify(after, now)).toBe(false);
    expect(createCodecSessions(TOKEN, TTL, '2026-08-02').verify(after, now)).toBe(false);
    // No epoch is the one cookies had before there was a setting for it.
    expect(createCodecSessions(TOKEN, TTL, '').verify(before, now)).toBe(true);
  });

  it('marks the cookie Secure exactly when the request came over https', () => {
    const over = (secure: boolean) => sessions.cookieOptions({ secure } as Request);
    expect(over(true)).toMatchObject({ secure: true, httpOnly: true, sameSite: 'strict', path: '/codec', maxAge: TTL });
    expect(over(false).secure).toBe(false);
  });

  it('refuses a cookie that claims to last longer than a sign-in may', () => {
    const longer = createCodecSessions(TOKEN, TTL * 10).mint(now);
    expect(sessions.verify(longer, now)).toBe(false);
  });

  it('reads one cookie out of a Cookie header', () => {
    const req = { get: () => 'a=1; durable_mcp_codec=v.x ; b=2' } as unknown as Request;
    expect(cookieValue(req, 'durable_mcp_codec')).toBe('v.x');
    expect(cookieValue(req, 'c')).toBeUndefined();
  });
});
