// Pins the AEAD sealer: round trip, purpose/context binding, tamper and garbage rejection, and key rotation.
import { randomBytes } from 'node:crypto';
import { createSealer, SealError, type KeyRingEntry, type SealFailure } from './sealer';

const oldKey: KeyRingEntry = { kid: 'old', key: randomBytes(32) };
const newKey: KeyRingEntry = { kid: 'new', key: randomBytes(32) };

function failureOf(open: () => unknown): SealFailure | 'opened' {
  try {
    open();
    return 'opened';
  } catch (error) {
    if (error instanceof SealError) return error.reason;
    throw error;
  }
}

/** Replaces one character inside the body (never the last, whose low bits base64 may ignore). */
function tamper(token: string, indexInBody: number): string {
  const dot = token.indexOf('.');
  const at = dot + 1 + indexInBody;
  const original = token[at];
  const replacement = original === 'A' ? 'B' : 'A';
  return token.slice(0, at) + replacement + token.slice(at + 1);
}

describe('createSealer', () => {
  it('opens what it sealed, with the same purpose and context', () => {
    const sealer = createSealer([oldKey]);
    const token = sealer.seal('request-state', 'héllo {"x":1}', 'ctx-1');
    expect(sealer.open('request-state', token, 'ctx-1')).toBe('héllo {"x":1}');
  });

  it('produces a different token each time for the same plaintext (random IV)', () => {
    const sealer = createSealer([oldKey]);
    expect(sealer.seal('request-state', 'same', 'ctx')).not.toBe(sealer.seal('request-state', 'same', 'ctx'));
  });

  it('does not reveal the plaintext in the token', () => {
    const sealer = createSealer([oldKey]);
    const token = sealer.seal('handler-state', 'secret-marker-value', 'ctx');
    expect(token).not.toContain('secret-marker-value');
    expect(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).not.toContain('secret-marker-value');
  });

  it('rejects a token sealed for one purpose when opened for another, as an authentication failure', () => {
    const sealer = createSealer([oldKey]);
    const token = sealer.seal('request-state', 'payload', 'ctx');
    expect(failureOf(() => sealer.open('handler-state', token, 'ctx'))).toBe('authentication');
  });

  it('rejects a token sealed for one context when opened for another, as an authentication failure', () => {
    const sealer = createSealer([oldKey]);
    const token = sealer.seal('handler-state', 'payload', 'exchange-a#1');
    expect(failureOf(() => sealer.open('handler-state', token, 'exchange-a#2'))).toBe('authentication');
    expect(failureOf(() => sealer.open('handler-state', token, 'exchange-b#1'))).toBe('authentication');
  });

  it.each([0, 5, 12, 20])(
    'rejects a token with one body character changed at %i as an authentication failure',
    (index) => {
      const sealer = createSealer([oldKey]);
      const token = sealer.seal('request-state', 'a payload long enough to tamper with', 'ctx');
      const tampered = tamper(token, index);
      expect(tampered).not.toBe(token);
      expect(failureOf(() => sealer.open('request-state', tampered, 'ctx'))).toBe('authentication');
    },
  );

  it('rejects a token with a flipped auth-tag character as an authentication failure', () => {
    const sealer = createSealer([oldKey]);
    const token = sealer.seal('request-state', 'payload', 'ctx');
    const bodyLength = token.length - token.indexOf('.') - 1;
    expect(failureOf(() => sealer.open('request-state', tamper(token, bodyLength - 3), 'ctx'))).toBe('authentication');
  });

  it.each([
    ['an empty string', ''],
    ['text without a key id separator', 'not a token at all'],
    ['a key id with no body', 'old.'],
    ['a body with characters outside base64url', 'old.abc+/def'],
    ['two separators', 'old.abc.def'],
  ])('rejects %s as malformed', (_label, garbage) => {
    const sealer = createSealer([oldKey]);
    expect(failureOf(() => sealer.open('request-state', garbage, 'ctx'))).toBe('malformed');
  });

  it('rejects a body too short to hold an IV and a tag as malformed', () => {
    const sealer = createSealer([oldKey]);
    const short = `old.${Buffer.alloc(27).toString('base64url')}`;
    expect(failureOf(() => sealer.open('request-state', short, 'ctx'))).toBe('malformed');
  });

  it('rejects a token whose key id is not in the ring as unknown-key', () => {
    const minted = createSealer([newKey]).seal('request-state', 'payload', 'ctx');
    expect(failureOf(() => createSealer([oldKey]).open('request-state', minted, 'ctx'))).toBe('unknown-key');
  });

  it('rejects a token relabelled with another key id in the ring as an authentication failure', () => {
    const sealer = createSealer([newKey, oldKey]);
    const token = sealer.seal('request-state', 'payload', 'ctx');
    const relabelled = `old${token.slice(token.indexOf('.'))}`;
    expect(failureOf(() => sealer.open('request-state', relabelled, 'ctx'))).toBe('authentication');
  });

  it('throws SealError instances whose message carries the reason', () => {
    const sealer = createSealer([oldKey]);
    let caught: unknown;
    try {
      sealer.open('request-state', 'garbage', 'ctx');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SealError);
    expect((caught as SealError).name).toBe('SealError');
    expect((caught as SealError).message).toContain('malformed');
  });

  it('refuses an empty key ring', () => {
    expect(() => createSealer([])).toThrow(/at least one key/);
  });

  describe('key rotation', () => {
    it('opens tokens sealed by the old ring with a ring [new, old]', () => {
      const before = createSealer([oldKey]).seal('handler-state', 'in flight', 'ctx');
      const rotated = createSealer([newKey, oldKey]);
      expect(rotated.open('handler-state', before, 'ctx')).toBe('in flight');
    });

    it('mints new tokens under the first key of the ring', () => {
      const token = createSealer([newKey, oldKey]).seal('request-state', 'payload', 'ctx');
      expect(token.startsWith('new.')).toBe(true);
    });

    it('mints tokens the old-only ring cannot open (new kid unknown there)', () => {
      const token = createSealer([newKey, oldKey]).seal('request-state', 'payload', 'ctx');
      expect(failureOf(() => createSealer([oldKey]).open('request-state', token, 'ctx'))).toBe('unknown-key');
    });

    it('opens tokens minted by [new, old] once the old key is retired', () => {
      const token = createSealer([newKey, oldKey]).seal('request-state', 'payload', 'ctx');
      expect(createSealer([newKey]).open('request-state', token, 'ctx')).toBe('payload');
    });
  });
});
