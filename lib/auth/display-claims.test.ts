import { displayClaimsOf, MAX_NAME_LENGTH, textClaim } from './display-claims';

describe('display claims', () => {
  it('keeps the name, and the email only when the issuer says it is verified', () => {
    expect(displayClaimsOf({ name: ' Rita Approver ', email: 'rita@example.com', email_verified: true })).toEqual({
      name: 'Rita Approver',
      email: 'rita@example.com',
    });
    expect(displayClaimsOf({ name: 'Rita', email: 'rita@example.com', email_verified: 'true' })).toEqual({
      name: 'Rita',
      email: 'rita@example.com',
    });
    expect(displayClaimsOf({ name: 'Rita', email: 'rita@example.com' })).toEqual({ name: 'Rita' });
    expect(displayClaimsOf({ email: 'rita@example.com', email_verified: false })).toEqual({});
    expect(displayClaimsOf({ email: 'rita@example.com', email_verified: 'yes' })).toEqual({});
  });

  it('drops what is not text or is blank', () => {
    expect(displayClaimsOf({ name: 42, email: ['a@b'], email_verified: true })).toEqual({});
    expect(displayClaimsOf({ name: '   ' })).toEqual({});
    expect(textClaim(undefined)).toBeUndefined();
  });

  it('cuts a long value to the bound in characters, never inside one', () => {
    const long = '😀'.repeat(MAX_NAME_LENGTH + 10);
    const cut = textClaim(long)!;
    expect(Array.from(cut)).toHaveLength(MAX_NAME_LENGTH);
    expect(cut).toBe('😀'.repeat(MAX_NAME_LENGTH));
    expect(textClaim('n'.repeat(MAX_NAME_LENGTH))).toHaveLength(MAX_NAME_LENGTH);
  });
});
