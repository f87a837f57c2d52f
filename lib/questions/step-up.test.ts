// Step-up: whether a sign-in satisfies a question's requirement, and what the issuer is asked for.
import {
  authenticationFromClaims,
  describeRequirement,
  describeUnmet,
  requiresAnything,
  stepUpParameters,
  unmetRequirement,
} from './step-up';

const NOW_S = 1_800_000_000;
const NOW = NOW_S * 1000;

describe('unmetRequirement', () => {
  it('is met by anything when nothing is required', () => {
    expect(unmetRequirement({}, {}, NOW)).toBeUndefined();
    expect(unmetRequirement({}, { acr: [], amr: [] }, NOW)).toBeUndefined();
  });

  it('takes a sign-in no older than max_age, and refuses an older one, one from the future, or one of unknown age', () => {
    expect(unmetRequirement({ authTime: NOW_S - 300 }, { maxAgeS: 300 }, NOW)).toBeUndefined();
    expect(unmetRequirement({ authTime: NOW_S - 301 }, { maxAgeS: 300 }, NOW)).toBe('max-age');
    expect(unmetRequirement({ authTime: NOW_S + 30 }, { maxAgeS: 300 }, NOW)).toBeUndefined(); // clock skew
    expect(unmetRequirement({ authTime: NOW_S + 3600 }, { maxAgeS: 300 }, NOW)).toBe('max-age');
    expect(unmetRequirement({}, { maxAgeS: 300 }, NOW)).toBe('max-age');
    expect(unmetRequirement({ authTime: NOW_S }, { maxAgeS: 0 }, NOW)).toBeUndefined();
  });

  it('takes an acr among the values asked for, and refuses another or none', () => {
    const requirement = { acr: ['urn:mfa', 'urn:phishing-resistant'] };
    expect(unmetRequirement({ acr: 'urn:phishing-resistant' }, requirement, NOW)).toBeUndefined();
    expect(unmetRequirement({ acr: 'urn:password' }, requirement, NOW)).toBe('acr');
    expect(unmetRequirement({}, requirement, NOW)).toBe('acr');
  });

  it('needs every method asked for among the amr', () => {
    expect(unmetRequirement({ amr: ['pwd', 'otp', 'mfa'] }, { amr: ['mfa', 'otp'] }, NOW)).toBeUndefined();
    expect(unmetRequirement({ amr: ['pwd'] }, { amr: ['mfa'] }, NOW)).toBe('amr');
    expect(unmetRequirement({ amr: ['mfa'] }, { amr: ['mfa', 'hwk'] }, NOW)).toBe('amr');
    expect(unmetRequirement({}, { amr: ['mfa'] }, NOW)).toBe('amr');
  });

  it('names the first unmet part when several are', () => {
    expect(unmetRequirement({ authTime: NOW_S - 10, acr: 'x' }, { maxAgeS: 60, acr: ['y'], amr: ['mfa'] }, NOW)).toBe(
      'acr',
    );
  });
});

describe('stepUpParameters', () => {
  it('asks for max_age and acr_values as OpenID Connect spells them', () => {
    expect(stepUpParameters({ maxAgeS: 0, acr: ['urn:mfa', 'urn:hwk'], amr: ['mfa'] })).toEqual({
      max_age: '0',
      acr_values: 'urn:mfa urn:hwk',
    });
    expect(stepUpParameters({ maxAgeS: 300 })).toEqual({ max_age: '300' });
    expect(stepUpParameters({})).toEqual({});
  });

  it('makes the person authenticate again for methods no acr value asks for', () => {
    expect(stepUpParameters({ amr: ['mfa'] })).toEqual({ prompt: 'login' });
    expect(stepUpParameters({ maxAgeS: 600, amr: ['otp'] })).toEqual({ max_age: '600', prompt: 'login' });
    expect(stepUpParameters({ acr: ['urn:mfa'], amr: ['mfa'] })).toEqual({ acr_values: 'urn:mfa' });
  });
});

describe('requiresAnything', () => {
  it('is false for an absent or empty requirement', () => {
    expect(requiresAnything(undefined)).toBe(false);
    expect(requiresAnything({})).toBe(false);
    expect(requiresAnything({ acr: [], amr: [] })).toBe(false);
    expect(requiresAnything({ maxAgeS: 60 })).toBe(true);
    expect(requiresAnything({ amr: ['mfa'] })).toBe(true);
    expect(requiresAnything({ acr: ['x'] })).toBe(true);
  });
});

describe('describeRequirement', () => {
  it('says what a requirement asks in plain words', () => {
    expect(describeRequirement({ amr: ['mfa'] })).toBe('a sign-in using multi-factor authentication (MFA)');
    expect(describeRequirement({ maxAgeS: 300, amr: ['mfa'] })).toBe(
      'a sign-in within the last 5 minutes, using multi-factor authentication (MFA)',
    );
    expect(describeRequirement({ maxAgeS: 3600 })).toBe('a sign-in within the last hour');
    expect(describeRequirement({ maxAgeS: 90, amr: ['otp', 'x-custom'], acr: ['urn:a', 'urn:b'] })).toBe(
      'a sign-in within the last 90 seconds, using a one-time code and “x-custom”, at one of the authentication levels “urn:a”, “urn:b”',
    );
    expect(describeRequirement({ acr: ['urn:mfa'] })).toBe('a sign-in at the authentication level “urn:mfa”');
  });

  it('says what a sign-in lacks', () => {
    expect(describeUnmet('max-age', { maxAgeS: 60 })).toBe('your sign-in is not from within the last minute');
    expect(describeUnmet('amr', { amr: ['mfa'] })).toBe('your sign-in did not use multi-factor authentication (MFA)');
    expect(describeUnmet('acr', { acr: ['urn:mfa'] })).toBe('your sign-in is not at the authentication level it needs');
  });
});

describe('authenticationFromClaims', () => {
  it('reads auth_time, acr and amr, leaving out what is malformed', () => {
    expect(authenticationFromClaims({ auth_time: NOW_S, acr: 'urn:mfa', amr: ['pwd', 'otp'] })).toEqual({
      authTime: NOW_S,
      acr: 'urn:mfa',
      amr: ['pwd', 'otp'],
    });
    expect(authenticationFromClaims({ auth_time: '1', acr: 7, amr: 'mfa' })).toEqual({});
    expect(authenticationFromClaims({ amr: ['ok', 3] })).toEqual({});
  });
});
