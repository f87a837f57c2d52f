// The session cookie and the pending sign-in: sealed, bounded in time, refused when altered, and
// bound to the sign-in, issuer, public origin and epoch that issued them.
import { randomBytes } from 'node:crypto';
import { createSealer } from '../../../../../lib/state/sealer';
import { createAnswerSessions, type SessionLifetimes } from './answer-session';
import type { CookieBinding } from './cookie-binding';
import { PENDING_SIGN_IN_TTL_MS } from './cookies';
import { csrfTokenOf, tokenMatches } from './csrf';
import { createPendingSignIns, stateMatches } from './pending-sign-in';
import { answerCookieRing, createSignInSealer } from './sign-in-sealer';

const RING = [{ kid: 'k1', key: randomBytes(32) }];
const IDENTITY = {
  id: 'https://id.example|alice',
  kind: 'person' as const,
  issuer: 'https://id.example',
  subject: 'alice',
  scopes: [],
  groups: ['g'],
};
const TTL = 3_600_000;
const REFRESH = 900_000;
const LIFETIMES: SessionLifetimes = { ttlMs: TTL, refreshMs: REFRESH };
const BINDING: CookieBinding = {
  mode: 'oidc',
  issuer: 'https://id.example',
  publicOrigin: 'https://answers.example',
  epoch: '',
};

let clock = 1_000_000_000_000;
const now = () => clock;
const sealer = createSignInSealer(RING, BINDING);

describe('answer sessions', () => {
  const sessions = createAnswerSessions(sealer, LIFETIMES, now);

  it('open to the identity they were minted for until their expiry', () => {
    const { value, record } = sessions.mint(IDENTITY);
    expect(record.exp - record.iat).toBe(TTL);
    expect(sessions.open(value)?.identity).toEqual(IDENTITY);
    clock += TTL - 1;
    expect(sessions.open(value)).toBeDefined();
    clock += 1;
    expect(sessions.open(value)).toBeUndefined();
  });

  it('are fresh until their refresh, then still open but no longer fresh', () => {
    const { value, record } = sessions.mint(IDENTITY);
    expect(record.refreshAt - record.iat).toBe(REFRESH);
    expect(sessions.isFresh(sessions.open(value)!)).toBe(true);
    clock += REFRESH - 1;
    expect(sessions.isFresh(sessions.open(value)!)).toBe(true);
    clock += 1;
    const stale = sessions.open(value);
    expect(stale?.identity).toEqual(IDENTITY);
    expect(sessions.isFresh(stale!)).toBe(false);
  });

  it('refresh at their expiry when the refresh is longer than the session', () => {
    const short = createAnswerSessions(sealer, { ttlMs: 120_000, refreshMs: REFRESH }, now);
    const { record } = short.mint(IDENTITY);
    expect(record.refreshAt).toBe(record.exp);
  });

  it('carry how the person authenticated, as the ID token said, for a step-up requirement', () => {
    const authentication = { authTime: 1_799_999_000, acr: 'urn:mfa', amr: ['pwd', 'otp'] };
    const { value } = sessions.mint(IDENTITY, authentication);
    expect(sessions.open(value)?.authentication).toEqual(authentication);
    expect(sessions.open(sessions.mint(IDENTITY).value)?.authentication).toEqual({});
  });

  it('refuse one whose refresh is further off than a sign-in gets here', () => {
    const lax = createAnswerSessions(sealer, { ttlMs: TTL, refreshMs: TTL }, now).mint(IDENTITY).value;
    expect(sessions.open(lax)).toBeUndefined();
  });

  it('refuse an altered value, a pending sign-in, and a value sealed under another ring', () => {
    const { value } = sessions.mint(IDENTITY);
    // A character in the middle: the last one of base64url may carry only padding bits.
    const at = Math.floor(value.length / 2);
    expect(
      sessions.open(`${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`),
    ).toBeUndefined();
    expect(
      sessions.open(
        createPendingSignIns(sealer, now).seal({ state: 's', nonce: 'n', verifier: 'v'.repeat(43) }, '/answers'),
      ),
    ).toBeUndefined();
    const stranger = createAnswerSessions(
      createSignInSealer([{ kid: 'k1', key: randomBytes(32) }], BINDING),
      LIFETIMES,
      now,
    );
    expect(sessions.open(stranger.mint(IDENTITY).value)).toBeUndefined();
    expect(sessions.open(undefined)).toBeUndefined();
  });

  it('refuse one that claims a longer life than a sign-in gets here', () => {
    const longer = createAnswerSessions(sealer, { ttlMs: TTL * 2, refreshMs: REFRESH }, now).mint(IDENTITY).value;
    expect(sessions.open(longer)).toBeUndefined();
  });

  it('are sealed under keys of their own, not the ring’s keys themselves', () => {
    const derived = answerCookieRing(RING)[0]!;
    expect(derived.kid).toBe('k1');
    expect(derived.key.equals(RING[0]!.key)).toBe(false);
    const { value } = sessions.mint(IDENTITY);
    expect(() => createSealer(RING).open('request-state', value, 'answer-page/session')).toThrow();
  });

  // The same keys everywhere, as deployments that share them have: only the binding differs.
  it.each<[string, Partial<CookieBinding>]>([
    ['the development sign-in', { mode: 'dev', issuer: undefined }],
    ['another issuer', { issuer: 'https://other-id.example' }],
    ['another deployment (another public origin)', { publicOrigin: 'https://answers.other.example' }],
    ['the same origin over http', { publicOrigin: 'http://answers.example' }],
    ['an earlier epoch (ANSWER_SESSION_EPOCH changed since)', { epoch: 'before' }],
  ])('refuse a session issued by %s', (_name, differing) => {
    const { issuer: _issuer, ...rest } = BINDING;
    const other = { ...rest, ...differing } as CookieBinding;
    if (other.issuer === undefined) delete other.issuer;
    const elsewhere = createAnswerSessions(createSignInSealer(RING, other), LIFETIMES, now);
    expect(sessions.open(elsewhere.mint(IDENTITY).value)).toBeUndefined();
    // …and a pending sign-in of theirs is none here either.
    const theirPending = createPendingSignIns(createSignInSealer(RING, other), now).seal(
      { state: 's', nonce: 'n', verifier: 'v'.repeat(43) },
      '/answers',
    );
    expect(createPendingSignIns(sealer, now).open(theirPending)).toBeUndefined();
  });

  it('open a session issued under the same binding by another replica (the same keys)', () => {
    const replica = createAnswerSessions(createSignInSealer(RING, { ...BINDING }), LIFETIMES, now);
    expect(sessions.open(replica.mint(IDENTITY).value)?.identity).toEqual(IDENTITY);
  });
});

describe('pending sign-ins', () => {
  const pendings = createPendingSignIns(sealer, now);
  const secrets = { state: 'the-state', nonce: 'the-nonce', verifier: 'v'.repeat(43) };

  it('last ten minutes, and match only their own state', () => {
    const value = pendings.seal(secrets, '/answers/q/1');
    const opened = pendings.open(value)!;
    expect(opened).toMatchObject({ ...secrets, returnTo: '/answers/q/1' });
    expect(stateMatches(opened, 'the-state')).toBe(true);
    expect(stateMatches(opened, 'the-statf')).toBe(false);
    expect(stateMatches(opened, ['the-state'])).toBe(false);
    clock += PENDING_SIGN_IN_TTL_MS;
    expect(pendings.open(value)).toBeUndefined();
  });
});

describe('CSRF', () => {
  const sessions = createAnswerSessions(sealer, LIFETIMES, now);

  it('takes the session’s own token only', () => {
    const { record } = sessions.mint(IDENTITY);
    const other = sessions.mint(IDENTITY).record;
    expect(tokenMatches(record, csrfTokenOf(record))).toBe(true);
    expect(tokenMatches(record, csrfTokenOf(other))).toBe(false);
    expect(tokenMatches(record, undefined)).toBe(false);
    expect(tokenMatches(record, '')).toBe(false);
  });
});
