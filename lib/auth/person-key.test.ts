import { personKeyOf } from './person-key';

describe('personKeyOf', () => {
  it('keys a person by the claim, whatever the issuer', () => {
    expect(personKeyOf({ sub: 'pairwise-1', oid: 'a1b2' }, 'oid')).toEqual({ key: 'claim:oid|a1b2' });
    expect(personKeyOf({ sub: 'pairwise-2', oid: 'a1b2' }, 'oid')).toEqual(personKeyOf({ oid: 'a1b2' }, 'oid'));
  });

  it('takes an email only when verified, and without case', () => {
    expect(personKeyOf({ email: 'Pat@Example.com', email_verified: true }, 'email')).toEqual({
      key: 'claim:email|pat%40example.com',
    });
    expect(personKeyOf({ email: 'pat@example.com' }, 'email')).toEqual({
      unmatched: expect.stringMatching(/not verified/),
    });
    expect(personKeyOf({ email: 'pat@example.com', email_verified: false }, 'email')).toHaveProperty('unmatched');
  });

  it('says why when the claim is missing or not a name', () => {
    expect(personKeyOf({ sub: 'x' }, 'oid')).toEqual({ unmatched: expect.stringMatching(/no oid claim/) });
    expect(personKeyOf({ oid: ['a'] }, 'oid')).toHaveProperty('unmatched');
    expect(personKeyOf({ oid: '' }, 'oid')).toHaveProperty('unmatched');
  });
});
