// Pins the requestState codec: claims round trip, expiry, request/principal binding, and tamper rejection.
import { randomBytes } from 'node:crypto';
import {
  createRequestStateCodec,
  RequestStateError,
  type RequestStateClaims,
  type RequestStateFailure,
} from './request-state';
import { createSealer } from './sealer';

const sealer = createSealer([{ kid: 'k1', key: randomBytes(32) }]);
const TTL_MS = 60_000;

const claims: RequestStateClaims = {
  exchangeId: 'ex-123',
  round: 2,
  kind: 'ask',
  requestDigest: 'digest-abc',
  principal: 'alice',
};
const expected = { requestDigest: claims.requestDigest, principal: claims.principal };

function clockAt(start: number) {
  const clock = { t: start, now: () => clock.t };
  return clock;
}

function failureOf(verify: () => unknown): RequestStateFailure | 'verified' {
  try {
    verify();
    return 'verified';
  } catch (error) {
    if (error instanceof RequestStateError) return error.reason;
    throw error;
  }
}

describe('createRequestStateCodec', () => {
  it('verifies a minted token and returns exactly the claims it was minted with', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    expect(codec.verify(codec.mint(claims), expected)).toEqual(claims);
  });

  it('round-trips a wait token with its kind', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    const wait = { ...claims, kind: 'wait' as const, round: 5 };
    expect(codec.verify(codec.mint(wait), expected)).toEqual(wait);
  });

  it('round-trips the answers digest and last event a wait token carries', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    const wait: RequestStateClaims = { ...claims, kind: 'wait', answersDigest: 'answers-xyz', afterEvent: 41 };
    expect(codec.verify(codec.mint(wait), expected)).toEqual(wait);
  });

  it("round-trips its client loop's count and whether the loop joined another's call", () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    const counted: RequestStateClaims = { ...claims, legs: 7, waits: 3, joined: true };
    expect(codec.verify(codec.mint(counted), expected)).toEqual(counted);
    expect(codec.verify(codec.mint({ ...claims, legs: 1, waits: 0 }), expected)).not.toHaveProperty('joined');
  });

  it('seals a pointer only: an ask token carries no copy of the handler state', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    const sealed = JSON.parse(sealer.open('request-state', codec.mint(claims), 'mcp-request-state-v1')) as object;
    expect(Object.keys(sealed).sort()).toEqual(['d', 'exp', 'k', 'p', 'r', 'v', 'x']);
  });

  it('still opens a token minted when asks carried the handler state, and ignores that copy', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    const older = JSON.stringify({
      v: 1,
      x: 'ex-123',
      r: 2,
      k: 'ask',
      d: 'digest-abc',
      p: 'alice',
      exp: Date.now() + TTL_MS,
      h: 'k1.sealed',
    });
    expect(codec.verify(sealer.seal('request-state', older, 'mcp-request-state-v1'), expected)).toEqual(claims);
  });

  it('accepts a token one millisecond before its expiry', () => {
    const clock = clockAt(1_000_000);
    const codec = createRequestStateCodec(sealer, TTL_MS, clock.now);
    const token = codec.mint(claims);
    clock.t += TTL_MS - 1;
    expect(codec.verify(token, expected)).toEqual(claims);
  });

  it('rejects a token at its expiry instant as expired', () => {
    const clock = clockAt(1_000_000);
    const codec = createRequestStateCodec(sealer, TTL_MS, clock.now);
    const token = codec.mint(claims);
    clock.t += TTL_MS;
    expect(failureOf(() => codec.verify(token, expected))).toBe('expired');
  });

  it('rejects a token long past its expiry as expired', () => {
    const clock = clockAt(1_000_000);
    const codec = createRequestStateCodec(sealer, TTL_MS, clock.now);
    const token = codec.mint(claims);
    clock.t += 10 * TTL_MS;
    expect(failureOf(() => codec.verify(token, expected))).toBe('expired');
  });

  it('rejects a token presented with a different request digest as request-mismatch', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    const token = codec.mint(claims);
    expect(failureOf(() => codec.verify(token, { ...expected, requestDigest: 'digest-other' }))).toBe(
      'request-mismatch',
    );
  });

  it('rejects a token presented by a different principal as principal-mismatch', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    const token = codec.mint(claims);
    expect(failureOf(() => codec.verify(token, { ...expected, principal: 'mallory' }))).toBe('principal-mismatch');
  });

  it('rejects a token with one body character changed as an authentication failure', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    const token = codec.mint(claims);
    const at = token.indexOf('.') + 10;
    const tampered = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
    expect(failureOf(() => codec.verify(tampered, expected))).toBe('authentication');
  });

  it('rejects garbage as malformed', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    expect(failureOf(() => codec.verify('definitely not sealed', expected))).toBe('malformed');
  });

  it('rejects a token minted under a key outside the ring as unknown-key', () => {
    const foreign = createRequestStateCodec(createSealer([{ kid: 'k9', key: randomBytes(32) }]), TTL_MS);
    const codec = createRequestStateCodec(sealer, TTL_MS);
    expect(failureOf(() => codec.verify(foreign.mint(claims), expected))).toBe('unknown-key');
  });

  it('rejects handler state sealed with the same keys as an authentication failure', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    const handlerToken = sealer.seal('handler-state', JSON.stringify({ v: 1 }), 'mcp-request-state-v1');
    expect(failureOf(() => codec.verify(handlerToken, expected))).toBe('authentication');
  });

  it('rejects an authentic token whose sealed JSON is not a claims object as claims', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    const notClaims = sealer.seal('request-state', JSON.stringify({ v: 2, x: 'ex' }), 'mcp-request-state-v1');
    const notJson = sealer.seal('request-state', '{not json', 'mcp-request-state-v1');
    expect(failureOf(() => codec.verify(notClaims, expected))).toBe('claims');
    expect(failureOf(() => codec.verify(notJson, expected))).toBe('claims');
  });

  it('throws RequestStateError instances whose message carries the reason', () => {
    const codec = createRequestStateCodec(sealer, TTL_MS);
    expect(() => codec.verify(codec.mint(claims), { ...expected, principal: 'bob' })).toThrow(RequestStateError);
    expect(() => codec.verify(codec.mint(claims), { ...expected, principal: 'bob' })).toThrow(/principal-mismatch/);
  });
});
