// The session cookie and the pending sign-in: sealed, bounded in time, refused when altered.
import { randomBytes } from 'node:crypto';
import { createSealer } from '../../../../../lib/state/sealer';
import { createAnswerSessions } from './answer-session';
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

let clock = 1_000_000_000_000;
const now = () => clock;
const sealer = createSignInSealer(RING);

describe('answer sessions', () => {
  const sessions = createAnswerSessions(sealer, TTL, now);

  it('open to the identity they were minted for until their expiry', () => {
    const { value, record } = sessions.mint(IDENTITY);
    expect(record.exp - record.iat).toBe(TTL);
    expect(sessions.open(value)?.identity).toEqual(IDENTITY);
    clock += TTL - 1;
    expect(sessions.open(value)).toBeDefined();
    clock += 1;
    expect(sessions.open(value)).toBeUndefined();
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
    const stranger = createAnswerSessions(createSignInSealer([{ kid: 'k1', key: randomBytes(32) }]), TTL, now);
    expect(sessions.open(stranger.mint(IDENTITY).value)).toBeUndefined();
    expect(sessions.open(undefined)).toBeUndefined();
  });

  it('refuse one that claims a longer life than a sign-in gets here', () => {
    const longer = createAnswerSessions(sealer, TTL * 2, now).mint(IDENTITY).value;
    expect(sessions.open(longer)).toBeUndefined();
  });

  it('are sealed under keys of their own, not the requestState keys', () => {
    const derived = answerCookieRing(RING)[0]!;
    expect(derived.kid).toBe('k1');
    expect(derived.key.equals(RING[0]!.key)).toBe(false);
    const { value } = sessions.mint(IDENTITY);
    expect(() => createSealer(RING).open('request-state', value, 'answer-sign-in/session')).toThrow();
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
  const sessions = createAnswerSessions(sealer, TTL, now);

  it('takes the session’s own token only', () => {
    const { record } = sessions.mint(IDENTITY);
    const other = sessions.mint(IDENTITY).record;
    expect(tokenMatches(record, csrfTokenOf(record))).toBe(true);
    expect(tokenMatches(record, csrfTokenOf(other))).toBe(false);
    expect(tokenMatches(record, undefined)).toBe(false);
    expect(tokenMatches(record, '')).toBe(false);
  });
});
