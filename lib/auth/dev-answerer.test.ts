import { ANONYMOUS_PRINCIPAL_ID, principalId } from '../exchange/principal';
import { MAX_GROUP_LENGTH, MAX_GROUPS, MAX_NAME_LENGTH } from './answerer-claims';
import { DEV_SIGN_IN_ISSUER, devAnswerer, devAuthentication, typedGroups } from './dev-answerer';

const identityOf = (fields: Parameters<typeof devAnswerer>[0]) => {
  const typed = devAnswerer(fields);
  if (!('identity' in typed)) throw new Error(`refused: ${JSON.stringify(typed.problems)}`);
  return typed.identity;
};
const problemsOf = (fields: Parameters<typeof devAnswerer>[0]) => {
  const typed = devAnswerer(fields);
  if (!('problems' in typed)) throw new Error('expected problems');
  return typed.problems;
};

describe('a development answerer', () => {
  it('is keyed under the development issuer, as an OpenID Connect sign-in keys its subject', () => {
    expect(identityOf({ subject: ' rita ', name: ' Rita Approver ', groups: 'refund-approvers, finance' })).toEqual({
      id: principalId(DEV_SIGN_IN_ISSUER, 'rita', undefined),
      kind: 'person',
      issuer: DEV_SIGN_IN_ISSUER,
      subject: 'rita',
      scopes: [],
      groups: ['refund-approvers', 'finance'],
      name: 'Rita Approver',
    });
    expect(identityOf({ subject: 'a|b' }).id).toBe(`${DEV_SIGN_IN_ISSUER}|a%7Cb`);
  });

  it('signs in as the anonymous caller itself with the subject anonymous', () => {
    expect(identityOf({ subject: ANONYMOUS_PRINCIPAL_ID, groups: 'ops' })).toEqual({
      id: ANONYMOUS_PRINCIPAL_ID,
      kind: 'person',
      subject: ANONYMOUS_PRINCIPAL_ID,
      scopes: [],
      groups: ['ops'],
    });
  });

  it('leaves out an empty name and groups', () => {
    expect(identityOf({ subject: 'sam', name: '  ', groups: ' , ,' })).toEqual({
      id: `${DEV_SIGN_IN_ISSUER}|sam`,
      kind: 'person',
      issuer: DEV_SIGN_IN_ISSUER,
      subject: 'sam',
      scopes: [],
      groups: [],
    });
  });

  it('reads groups comma-separated, each once, in the order typed', () => {
    expect(typedGroups('b, a ,b,,c')).toEqual(['b', 'a', 'c']);
    expect(typedGroups(['a', 'b'])).toEqual([]);
  });

  it.each([
    [{}, 'subject', 'Type who you are signing in as.'],
    [{ subject: '   ' }, 'subject', 'Type who you are signing in as.'],
    [{ subject: ['a', 'b'] }, 'subject', 'Type who you are signing in as.'],
    [{ subject: 'x'.repeat(MAX_NAME_LENGTH + 1) }, 'subject', `At most ${MAX_NAME_LENGTH} characters.`],
    [{ subject: 'a\nb' }, 'subject', 'No control characters.'],
    [{ subject: 'a', name: 'n'.repeat(MAX_NAME_LENGTH + 1) }, 'name', `At most ${MAX_NAME_LENGTH} characters.`],
    [{ subject: 'a', name: 'n\u0007' }, 'name', 'No control characters.'],
    [
      { subject: 'a', groups: Array.from({ length: MAX_GROUPS + 1 }, (_, i) => `g${i}`).join(',') },
      'groups',
      `At most ${MAX_GROUPS} groups.`,
    ],
    [
      { subject: 'a', groups: 'g'.repeat(MAX_GROUP_LENGTH + 1) },
      'groups',
      `A group is at most ${MAX_GROUP_LENGTH} characters.`,
    ],
    [{ subject: 'a', groups: 'ok,b\tad' }, 'groups', 'A group cannot hold control characters.'],
  ])('refuses %j', (fields, field, message) => {
    expect(problemsOf(fields)).toEqual([{ field, message }]);
  });

  it('takes a subject, name and group at their bounds', () => {
    const identity = identityOf({
      subject: 's'.repeat(MAX_NAME_LENGTH),
      name: 'n'.repeat(MAX_NAME_LENGTH),
      groups: Array.from({ length: MAX_GROUPS }, (_, i) => `${i}`.padEnd(MAX_GROUP_LENGTH, 'g')).join(','),
    });
    expect(identity.groups).toHaveLength(MAX_GROUPS);
    expect(identity.name).toHaveLength(MAX_NAME_LENGTH);
  });

  it('says every field that is wrong at once', () => {
    expect(problemsOf({ name: 'x\ny', groups: 'a\nb' }).map((p) => p.field)).toEqual(['subject', 'name', 'groups']);
  });
});

describe('devAuthentication', () => {
  const NOW_MS = 1_800_000_000_500;

  it('says the person signed in now, with the acr and methods typed', () => {
    expect(devAuthentication({ acr: ' urn:mfa ', amr: 'pwd, otp,, mfa, otp' }, NOW_MS)).toEqual({
      authentication: { authTime: 1_800_000_000, acr: 'urn:mfa', amr: ['pwd', 'otp', 'mfa'] },
    });
    expect(devAuthentication({}, NOW_MS)).toEqual({ authentication: { authTime: 1_800_000_000 } });
  });

  it('refuses a method with a space or a control character, too many, and an acr with a control character', () => {
    expect(devAuthentication({ amr: 'two words' }, NOW_MS)).toEqual({
      problems: [{ field: 'amr', message: 'A method is one word of at most 64 characters.' }],
    });
    expect(devAuthentication({ amr: Array.from({ length: 33 }, (_, i) => `m${i}`).join(',') }, NOW_MS)).toEqual({
      problems: [{ field: 'amr', message: 'At most 32 methods.' }],
    });
    expect(devAuthentication({ acr: 'a\u0007b' }, NOW_MS)).toEqual({
      problems: [{ field: 'acr', message: 'No control characters.' }],
    });
  });
});
