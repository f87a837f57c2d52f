import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import { canonicalize, digestOfJson } from './canonical-json';
import { evidenceFactsOf } from './evidence-entry';
import { entryHash } from './entry-signing';
import { evidenceJwksOf, ed25519KeyOf } from './signing-keys';
import { chainOf, QUESTION, testKey } from './test-chain';

const attempt = {
  answerId: 'a-1',
  by: {
    id: 'https://id.example|dana',
    issuer: 'https://id.example',
    subject: 'dana',
    name: 'Dana',
    scopes: ['refunds:approve'],
    groups: ['finance'],
  },
  via: 'page' as const,
  response: { action: 'accept' as const, content: { note: 'fine' } },
  shownDigest: 'shown-digest',
  at: Date.UTC(2026, 0, 1),
};

describe('evidence entries', () => {
  it('bind the call (arguments by digest), the question, what was shown, the answerer, the channel and the decision', () => {
    const facts = evidenceFactsOf(QUESTION, attempt, { taken: true, decided: true });
    expect(facts).toEqual({
      exchange: QUESTION.exchangeId,
      call: {
        method: 'tools/call',
        target: 'refund',
        argumentsDigest: digestOfJson({ amount: 12.5, order: 'R-1' }),
        caller: { id: QUESTION.caller.id, issuer: 'https://id.example', subject: 'alice' },
      },
      question: { id: 'q-1', round: 1, key: 'approval', message: 'Refund R-1?', shownDigest: 'shown-digest' },
      answerer: {
        id: 'https://id.example|dana',
        issuer: 'https://id.example',
        subject: 'dana',
        name: 'Dana',
        scopes: ['refunds:approve'],
        groups: ['finance'],
      },
      channel: 'page',
      decision: {
        outcome: 'taken',
        action: 'accept',
        decided: true,
        answerId: 'a-1',
        responseDigest: digestOfJson({ action: 'accept', content: { note: 'fine' } }),
        shownDigest: 'shown-digest',
      },
      answeredAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('name a refusal by its reason, the count of refusals only counted, and the answerer details known', () => {
    const by = { ...attempt.by, kind: 'person' as const, acr: 'urn:mfa', amr: ['pwd', 'otp'], authTime: 1_767_225_600 };
    const facts = evidenceFactsOf(
      QUESTION,
      { ...attempt, by, shownDigest: 'other' },
      { taken: false, refusal: 'stale' },
      3,
    );
    expect(facts.decision).toEqual({
      outcome: 'refused',
      action: 'accept',
      refusal: 'stale',
      answerId: 'a-1',
      shownDigest: 'other',
    });
    expect(facts.unrecordedRefusals).toBe(3);
    expect(facts.answerer).toMatchObject({
      kind: 'person',
      acr: 'urn:mfa',
      amr: ['pwd', 'otp'],
      authTime: '2026-01-01T00:00:00.000Z',
    });
  });

  it('are JWSs of their JCS payload, signed EdDSA by the first key, verifiable with the published JWKS', async () => {
    const key = testKey('first');
    const [entry] = await chainOf(key, [{ taken: true, decided: true }]);
    expect(decodeProtectedHeader(entry!.jws)).toEqual({ alg: 'EdDSA', kid: 'first', typ: 'durable-mcp-evidence+json' });
    const { payload } = await compactVerify(entry!.jws, createLocalJWKSet(evidenceJwksOf([key, testKey('old')])));
    const text = new TextDecoder().decode(payload);
    expect(canonicalize(JSON.parse(text))).toBe(text);
    expect(JSON.parse(text)).toMatchObject({ typ: 'durable-mcp/evidence', v: 1, seq: 1, prev: null, exchangeSeq: 1 });
    expect(entry!.hash).toBe(entryHash(entry!.jws));
  });

  it('make the same public key from the same 32 bytes (a key pair openssl would make from that seed)', () => {
    const seed = Buffer.alloc(32, 0);
    // RFC 8032 §7.1 test 1's public key is for the seed 9d61...; an all-zero seed gives this known key.
    expect(ed25519KeyOf('z', seed).publicJwk.x).toBe('O2onvM62pC1io6jQKm8Nc2UyFXcd4kOmOsBIoYtZ2ik');
    const rfc = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex');
    expect(Buffer.from(ed25519KeyOf('r', rfc).publicJwk.x, 'base64url').toString('hex')).toBe(
      'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
    );
  });
});
