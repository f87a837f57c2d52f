// The development sign-in's form secret: sealed, bounded in time, its token matching only its own cookie.
import { randomBytes } from 'node:crypto';
import { createAnswerSessions } from './answer-session';
import { PENDING_SIGN_IN_TTL_MS } from './cookies';
import { createDevSignInForms } from './dev-sign-in-forms';
import { createSignInSealer } from './sign-in-sealer';

let clock = 1_000_000_000_000;
const now = () => clock;
const sealer = createSignInSealer([{ kid: 'k1', key: randomBytes(32) }], {
  mode: 'dev',
  publicOrigin: 'http://127.0.0.1:3000',
  epoch: '',
});
const forms = createDevSignInForms(sealer, now);

describe('development sign-in forms', () => {
  it('match the token issued with their cookie until the form expires', () => {
    const { cookie, token } = forms.issue();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(forms.tokenOf(cookie)).toBe(token);
    expect(forms.matches(cookie, token)).toBe(true);
    clock += PENDING_SIGN_IN_TTL_MS - 1;
    expect(forms.matches(cookie, token)).toBe(true);
    clock += 1;
    expect(forms.matches(cookie, token)).toBe(false);
    expect(forms.tokenOf(cookie)).toBeUndefined();
  });

  it('refuse another form’s token, no token, no cookie, and an altered cookie', () => {
    const one = forms.issue();
    const other = forms.issue();
    expect(one.token).not.toBe(other.token);
    expect(forms.matches(one.cookie, other.token)).toBe(false);
    expect(forms.matches(one.cookie, undefined)).toBe(false);
    expect(forms.matches(one.cookie, [one.token])).toBe(false);
    expect(forms.matches(undefined, one.token)).toBe(false);
    // A character in the middle: the last one of base64url may carry only padding bits.
    const at = Math.floor(one.cookie.length / 2);
    const altered = `${one.cookie.slice(0, at)}${one.cookie[at] === 'A' ? 'B' : 'A'}${one.cookie.slice(at + 1)}`;
    expect(forms.matches(altered, one.token)).toBe(false);
  });

  it('never take a session cookie for a form, nor a form for a session', () => {
    const sessions = createAnswerSessions(sealer, { ttlMs: 3_600_000, refreshMs: 3_600_000 }, now);
    const { value } = sessions.mint({ id: 'anonymous', subject: 'anonymous', scopes: [], groups: [] });
    expect(forms.tokenOf(value)).toBeUndefined();
    expect(sessions.open(forms.issue().cookie)).toBeUndefined();
  });
});
