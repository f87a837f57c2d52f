import { tenantOf } from './tenant-claim';

const issuer = 'https://issuer.example';

describe('tenantOf', () => {
  it('keys the claim value under the issuer', () => {
    expect(tenantOf({ tid: 'acme' }, 'tid', issuer)).toBe(`${issuer}|acme`);
    expect(tenantOf({ org: 42 }, 'org', issuer)).toBe(`${issuer}|42`);
  });

  it('keeps two issuers apart, and a `|` in the value from merging keys', () => {
    expect(tenantOf({ tid: 'acme' }, 'tid', 'https://other.example')).not.toBe(
      tenantOf({ tid: 'acme' }, 'tid', issuer),
    );
    expect(tenantOf({ tid: 'a|b' }, 'tid', issuer)).toBe(`${issuer}|a%7Cb`);
  });

  it('names no tenant for a missing, empty or non-scalar claim', () => {
    expect(tenantOf({}, 'tid', issuer)).toBeUndefined();
    expect(tenantOf({ tid: '  ' }, 'tid', issuer)).toBeUndefined();
    expect(tenantOf({ tid: ['a'] }, 'tid', issuer)).toBeUndefined();
    expect(tenantOf({ tid: { id: 'a' } }, 'tid', issuer)).toBeUndefined();
    expect(tenantOf({ tid: Number.NaN }, 'tid', issuer)).toBeUndefined();
  });

  it('bounds a long value by its digest', () => {
    const key = tenantOf({ tid: 'x'.repeat(5000) }, 'tid', issuer)!;
    expect(key.length).toBeLessThanOrEqual(255);
    expect(key).toMatch(/sha256:[0-9a-f]{64}$/);
  });
});
