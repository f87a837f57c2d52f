// Pins the fairness key: a digest of the principal (or the tenant, when asked for and named), one
// an operator can compute from the id, bounded by Temporal's 64 bytes, never the id itself.
import { exchangePriority, fairnessKeyOf } from './fairness';
import { MAX_PRINCIPAL_ID_LENGTH, principalId } from './principal';

const alice = principalId('https://auth.example.com', 'alice', 'calendar-app');
const bob = principalId('https://auth.example.com', 'bob', 'calendar-app');

describe('fairnessKeyOf', () => {
  it('is the first 32 hex characters of the SHA-256 of the id (FIPS 180-2 vector for "abc")', () => {
    expect(fairnessKeyOf({ principal: 'abc' }, 'principal')).toBe('principal:ba7816bf8f01cfea414140de5dae2223');
    expect(fairnessKeyOf({ principal: 'someone', tenant: 'abc' }, 'tenant')).toBe(
      'tenant:ba7816bf8f01cfea414140de5dae2223',
    );
  });

  it('gives each principal its own key, the same at every call, naming none of it', () => {
    const key = fairnessKeyOf({ principal: alice }, 'principal');
    expect(fairnessKeyOf({ principal: alice }, 'principal')).toBe(key);
    expect(fairnessKeyOf({ principal: bob }, 'principal')).not.toBe(key);
    expect(key).not.toContain('alice');
    expect(key).not.toContain('auth.example.com');
  });

  it('keys by tenant only when asked to and the token named one', () => {
    const acme = { principal: alice, tenant: 'acme' };
    expect(fairnessKeyOf(acme, 'tenant')).toBe(fairnessKeyOf({ principal: bob, tenant: 'acme' }, 'tenant'));
    expect(fairnessKeyOf(acme, 'tenant')).toMatch(/^tenant:/);
    expect(fairnessKeyOf(acme, 'principal')).toBe(fairnessKeyOf({ principal: alice }, 'principal'));
    expect(fairnessKeyOf({ principal: alice }, 'tenant')).toBe(fairnessKeyOf({ principal: alice }, 'principal'));
  });

  it('never puts a tenant and a principal of the same text under one key', () => {
    expect(fairnessKeyOf({ principal: 'x', tenant: 'acme' }, 'tenant')).not.toBe(
      fairnessKeyOf({ principal: 'acme' }, 'principal'),
    );
  });

  it('fits in the 64 bytes Temporal allows, however long the id', () => {
    const longest = 'p'.repeat(MAX_PRINCIPAL_ID_LENGTH);
    for (const key of [
      fairnessKeyOf({ principal: longest }, 'principal'),
      fairnessKeyOf({ principal: longest, tenant: 'ü'.repeat(1000) }, 'tenant'),
    ])
      expect(Buffer.byteLength(key, 'utf8')).toBeLessThanOrEqual(64);
  });
});

describe('exchangePriority', () => {
  it("carries the caller's key, and the handler's priority only when declared", () => {
    const key = fairnessKeyOf({ principal: alice }, 'principal');
    expect(exchangePriority({ principal: alice }, 'principal', undefined)).toEqual({ fairnessKey: key });
    expect(exchangePriority({ principal: alice }, 'principal', 1)).toEqual({ fairnessKey: key, priorityKey: 1 });
  });
});
