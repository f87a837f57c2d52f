// Claims to an answerer's identity: the key a bearer token gets, groups from a string or a list.
import { principalId } from '../exchange/principal';
import {
  answererFromClaims,
  pairwiseProblem,
  groupsOf,
  lacksProfile,
  MAX_GROUPS,
  withUserinfo,
} from './answerer-claims';

const ISSUER = 'https://id.example.com';

describe('answerer claims', () => {
  it('keys the answerer as a bearer token of the same issuer and subject, with no client', () => {
    const identity = answererFromClaims(ISSUER, { sub: 'a|b', name: 'Alice', groups: ['x', 'y'] }, 'groups');
    expect(identity).toEqual({
      id: principalId(ISSUER, 'a|b', undefined),
      kind: 'person',
      issuer: ISSUER,
      subject: 'a|b',
      scopes: [],
      groups: ['x', 'y'],
      name: 'Alice',
    });
    expect(identity.id).toBe(`${ISSUER}|a%7Cb`);
  });

  it('reads groups from the configured claim, a string or a list, strings only, bounded', () => {
    expect(answererFromClaims(ISSUER, { sub: 's', roles: 'ops' }, 'roles').groups).toEqual(['ops']);
    expect(groupsOf(['a', 1, null, 'a', '', { g: 1 }, 'b'])).toEqual(['a', 'b']);
    expect(groupsOf(undefined)).toEqual([]);
    expect(groupsOf(Array.from({ length: 500 }, (_, i) => `g${i}`))).toHaveLength(MAX_GROUPS);
  });

  it('names the answerer by the name claim only, and keeps an email only when the provider says it is verified', () => {
    expect(answererFromClaims(ISSUER, { sub: 's', name: ' Rita ' }, 'groups').name).toBe('Rita');
    const unverified = answererFromClaims(ISSUER, { sub: 's', name: '  ', email: 'e@x' }, 'groups');
    expect(unverified).not.toHaveProperty('name');
    expect(unverified).not.toHaveProperty('email');
    expect(answererFromClaims(ISSUER, { sub: 's', email: 'e@x', email_verified: false }, 'groups')).not.toHaveProperty(
      'email',
    );
    expect(answererFromClaims(ISSUER, { sub: 's', email: 'e@x', email_verified: true }, 'groups')).toMatchObject({
      email: 'e@x',
    });
    expect(answererFromClaims(ISSUER, { sub: 's', email: 'e@x', email_verified: 'true' }, 'groups').email).toBe('e@x');
    expect(answererFromClaims(ISSUER, { sub: 's' }, 'groups')).not.toHaveProperty('name');
  });

  it('asks userinfo only for what the ID token lacks, and takes it only for the same subject', () => {
    expect(lacksProfile({ sub: 's', groups: [], name: 'n' }, 'groups')).toBe(false);
    expect(lacksProfile({ sub: 's', name: 'n' }, 'groups')).toBe(true);
    expect(lacksProfile({ sub: 's', groups: [] }, 'groups')).toBe(true);
    expect(withUserinfo({ sub: 's', name: 'token' }, { sub: 's', name: 'userinfo', groups: ['g'] })).toEqual({
      sub: 's',
      name: 'token',
      groups: ['g'],
    });
    expect(withUserinfo({ sub: 's' }, { sub: 't', groups: ['g'] })).toBeUndefined();
  });
});

describe('a sign-in keyed by the deployment’s identity claim', () => {
  it('keys the person by the claim, as a token of theirs with another subject is', () => {
    const identity = answererFromClaims(ISSUER, { sub: 'pairwise-page', oid: 'a1b2' }, 'groups', 'oid');
    expect(identity.id).toBe('claim:oid|a1b2');
    expect(identity.subject).toBe('pairwise-page');
  });

  it('refuses a sign-in that lacks the claim: the person could not be told from the caller', () => {
    expect(() => answererFromClaims(ISSUER, { sub: 'x' }, 'groups', 'oid')).toThrow(/no oid claim/);
  });

  it('refuses pairwise subjects unless a claim keys people', () => {
    expect(pairwiseProblem({ subject_types_supported: ['pairwise'] }, undefined)).toMatch(/ANSWER_IDENTITY_CLAIM/);
    expect(pairwiseProblem({ subject_types_supported: ['pairwise'] }, 'oid')).toBeUndefined();
    expect(pairwiseProblem({ subject_types_supported: ['public', 'pairwise'] }, undefined)).toBeUndefined();
    expect(pairwiseProblem({}, undefined)).toBeUndefined();
  });
});
