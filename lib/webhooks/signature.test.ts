import { randomBytes } from 'node:crypto';
import { signWebhook } from './signature';
import { verifyWebhook, WebhookVerificationError, type WebhookRefusal } from './verify';
import { secretKey, secretProblem } from './webhook-secret';

// The specification's own example (standard-webhooks' test vectors): what any receiver's library computes.
const SPEC = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const SPEC_NOW = SPEC.timestamp * 1000;

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

function refusalOf(run: () => unknown): WebhookRefusal | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
}

describe('signWebhook', () => {
  it("signs as the specification's example does", () => {
    expect(signWebhook(SPEC.id, SPEC.timestamp, SPEC.body, [SPEC.secret])).toEqual({
      'webhook-id': SPEC.id,
      'webhook-timestamp': String(SPEC.timestamp),
      'webhook-signature': SPEC.signature,
    });
  });

  it('signs with every secret, space-separated, in their order (a rotation)', () => {
    const [a, b] = [newSecret(), newSecret()];
    const both = signWebhook('e1', 1, '{}', [a, b])['webhook-signature'].split(' ');
    expect(both).toHaveLength(2);
    expect(both[0]).toBe(signWebhook('e1', 1, '{}', [a])['webhook-signature']);
    expect(both[1]).toBe(signWebhook('e1', 1, '{}', [b])['webhook-signature']);
  });

  it('refuses to send unsigned, or with a fractional timestamp', () => {
    expect(() => signWebhook('e1', 1, '{}', [])).toThrow(/at least one secret/);
    expect(() => signWebhook('e1', 1.5, '{}', [newSecret()])).toThrow(/whole seconds/);
  });
});

describe('verifyWebhook', () => {
  const headers = { ...signWebhook(SPEC.id, SPEC.timestamp, SPEC.body, [SPEC.secret]) };

  it("accepts the specification's example, from fetch Headers or node's headers, with or without the prefix", () => {
    expect(verifyWebhook(headers, SPEC.body, SPEC.secret, { now: SPEC_NOW })).toEqual({
      id: SPEC.id,
      timestamp: SPEC.timestamp,
    });
    expect(verifyWebhook(new Headers(headers), Buffer.from(SPEC.body), [SPEC.secret], { now: SPEC_NOW }).id).toBe(
      SPEC.id,
    );
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(verifyWebhook(upper, SPEC.body, SPEC.secret.slice(6), { now: SPEC_NOW }).id).toBe(SPEC.id);
  });

  it('accepts any one matching signature against any of its secrets (either side of a rotation)', () => {
    const [old, next, other] = [newSecret(), newSecret(), newSecret()];
    const now = Date.now();
    const signed = signWebhook('e1', Math.floor(now / 1000), '{"a":1}', [old, next]);
    expect(verifyWebhook(signed, '{"a":1}', [old], { now }).id).toBe('e1');
    expect(verifyWebhook(signed, '{"a":1}', [other, next], { now }).id).toBe('e1');
    expect(refusalOf(() => verifyWebhook(signed, '{"a":1}', [other], { now }))).toBe('bad_signature');
  });

  it('refuses a changed body, id or timestamp, and a signature of another version', () => {
    const now = SPEC_NOW;
    expect(refusalOf(() => verifyWebhook(headers, `${SPEC.body} `, SPEC.secret, { now }))).toBe('bad_signature');
    expect(refusalOf(() => verifyWebhook({ ...headers, 'webhook-id': 'msg_x' }, SPEC.body, SPEC.secret, { now }))).toBe(
      'bad_signature',
    );
    const later = { ...headers, 'webhook-timestamp': String(SPEC.timestamp + 1) };
    expect(refusalOf(() => verifyWebhook(later, SPEC.body, SPEC.secret, { now }))).toBe('bad_signature');
    const v2 = { ...headers, 'webhook-signature': SPEC.signature.replace('v1,', 'v2,') };
    expect(refusalOf(() => verifyWebhook(v2, SPEC.body, SPEC.secret, { now }))).toBe('bad_signature');
    const short = { ...headers, 'webhook-signature': 'v1,g0hM9SsE' };
    expect(refusalOf(() => verifyWebhook(short, SPEC.body, SPEC.secret, { now }))).toBe('bad_signature');
  });

  it('refuses a stale or a future timestamp, outside the tolerance either way', () => {
    const verifyAt = (now: number, toleranceS?: number) =>
      refusalOf(() => verifyWebhook(headers, SPEC.body, SPEC.secret, { now, ...(toleranceS ? { toleranceS } : {}) }));
    expect(verifyAt(SPEC_NOW + 300_000)).toBeUndefined();
    expect(verifyAt(SPEC_NOW + 301_000)).toBe('stale');
    expect(verifyAt(SPEC_NOW - 300_000)).toBeUndefined();
    expect(verifyAt(SPEC_NOW - 301_000)).toBe('future');
    expect(verifyAt(SPEC_NOW + 30_000, 10)).toBe('stale');
  });

  it('refuses a message without its headers, or with a timestamp that is not seconds', () => {
    const { 'webhook-signature': _, ...unsigned } = headers;
    expect(refusalOf(() => verifyWebhook(unsigned, SPEC.body, SPEC.secret, { now: SPEC_NOW }))).toBe('missing_headers');
    for (const timestamp of ['1614265330000.5', '-1', 'soon', '1e9'])
      expect(
        refusalOf(() =>
          verifyWebhook({ ...headers, 'webhook-timestamp': timestamp }, SPEC.body, SPEC.secret, { now: SPEC_NOW }),
        ),
      ).toBe('malformed_timestamp');
  });
});

describe('webhook secrets', () => {
  it('takes whsec_ and 24 to 64 bytes of base64', () => {
    expect(secretProblem(SPEC.secret)).toBeUndefined();
    expect(secretProblem(newSecret())).toBeUndefined();
    expect(secretProblem(SPEC.secret.slice(6))).toMatch(/start with whsec_/);
    expect(secretProblem(`whsec_${randomBytes(16).toString('base64')}`)).toMatch(/24 to 64 bytes/);
    expect(secretProblem(`whsec_${randomBytes(65).toString('base64')}`)).toMatch(/24 to 64 bytes/);
    expect(secretProblem('whsec_not base64!')).toMatch(/base64/);
  });

  it('decodes to the key HMAC takes, and a malformed one throws without showing it', () => {
    expect(secretKey(SPEC.secret)).toHaveLength(24);
    expect(() => secretKey('whsec_hunter2')).toThrow(/^a webhook secret must be/);
    expect(() => secretKey('whsec_hunter2')).not.toThrow(/hunter2/);
  });
});
