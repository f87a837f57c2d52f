// Pins the claim mapping both kinds of token go through: scopes, client, subject, audience, and
// the principal they make.
import {
  audiencesOf,
  authInfoFromClaims,
  groupsFromAuthInfo,
  principalFromAuthInfo,
  scopesOf,
  serviceTokenOf,
  type TokenClaims,
} from './token-claims';
import { callerUnmatchedOf, detailsOf, personIdOf } from '../exchange/principal';
import { TokenRefused } from './token-refusal';

const ISSUER = 'https://auth.example.com';
const RESOURCE = 'https://mcp.example.com/mcp';

describe('scopesOf', () => {
  it.each([
    [{ scope: 'mcp files:read' }, ['mcp', 'files:read']],
    [{ scope: 'mcp  mcp' }, ['mcp']],
    [{ scp: ['mcp', 'files:read'] }, ['mcp', 'files:read']],
    [{ scp: 'mcp' }, ['mcp']],
    [{ scope: '' }, []],
    [{}, []],
    [{ scp: [1, 'mcp'] }, ['mcp']],
  ])('reads %j as %j', (claims, scopes) => {
    expect(scopesOf(claims)).toEqual(scopes);
  });
});

describe('audiencesOf', () => {
  it('reads a string or a list, ignoring anything else', () => {
    expect(audiencesOf({ aud: RESOURCE })).toEqual([RESOURCE]);
    expect(audiencesOf({ aud: [RESOURCE, 42, 'other'] })).toEqual([RESOURCE, 'other']);
    expect(audiencesOf({})).toEqual([]);
  });
});

describe('authInfoFromClaims', () => {
  const claims = {
    iss: ISSUER,
    sub: 'alice',
    client_id: 'calendar-app',
    scope: 'mcp',
    exp: 2_000_000_000,
    aud: RESOURCE,
  };

  it('maps a JWT access token (RFC 9068) to the SDK AuthInfo, naming the resource it was issued for', () => {
    const info = authInfoFromClaims('t0ken', claims, ISSUER, [RESOURCE]);
    expect(info).toEqual({
      token: 't0ken',
      clientId: 'calendar-app',
      scopes: ['mcp'],
      expiresAt: 2_000_000_000,
      resource: new URL(RESOURCE),
      extra: { issuer: ISSUER, subject: 'alice', client: 'calendar-app' },
    });
  });

  it("gives the principal its token's display name, and its email only when verified, beside the subject", () => {
    const named = principalFromAuthInfo(
      authInfoFromClaims(
        't',
        { sub: 'x3Jq', client_id: 'desk', name: ' Alice Example ', email: 'alice@example.com', email_verified: true },
        ISSUER,
        [RESOURCE],
      ),
    );
    expect(named).toMatchObject({
      id: `${ISSUER}|x3Jq|desk`,
      subject: 'x3Jq',
      name: 'Alice Example',
      email: 'alice@example.com',
    });
    const unverified = principalFromAuthInfo(
      authInfoFromClaims('t', { sub: 'x3Jq', name: 'n'.repeat(300), email: 'alice@example.com' }, ISSUER, [RESOURCE]),
    );
    expect(unverified.name).toHaveLength(256);
    expect(unverified).not.toHaveProperty('email');
    // The key is the same whatever the name says.
    expect(unverified.id).toBe(principalFromAuthInfo(authInfoFromClaims('t', { sub: 'x3Jq' }, ISSUER, [RESOURCE])).id);
  });

  it('takes the client from azp when client_id is absent, and the subject from the client when sub is', () => {
    const info = authInfoFromClaims('t', { azp: 'app', exp: 1 }, ISSUER, [RESOURCE]);
    expect(info.clientId).toBe('app');
    expect(principalFromAuthInfo(info)).toMatchObject({ subject: 'app', clientId: 'app', id: `${ISSUER}|client:app` });
  });

  it('keys a client without a sub apart from a user whose sub is the same string', () => {
    const client = principalFromAuthInfo(authInfoFromClaims('t', { client_id: 'svc', exp: 1 }, ISSUER, [RESOURCE]));
    const user = principalFromAuthInfo(authInfoFromClaims('t', { sub: 'svc', exp: 1 }, ISSUER, [RESOURCE]));
    const userNamedLikeTheKey = principalFromAuthInfo(
      authInfoFromClaims('t', { sub: 'client:svc', exp: 1 }, ISSUER, [RESOURCE]),
    );
    expect(new Set([client.id, user.id, userNamedLikeTheKey.id]).size).toBe(3);
  });

  it('accepts the audience with a trailing slash (an origin resource as clients send it)', () => {
    const origin = 'https://mcp.example.com';
    const info = authInfoFromClaims('t', { ...claims, aud: `${origin}/` }, ISSUER, [origin]);
    expect(info.resource?.href).toBe(`${origin}/`);
  });

  it('refuses a token that names neither a subject nor a client', () => {
    expect(() => authInfoFromClaims('t', { iss: ISSUER, exp: 1 }, ISSUER, [RESOURCE])).toThrow(TokenRefused);
  });
});

describe('principalFromAuthInfo', () => {
  it('makes the principal from the issuer, subject, client and scopes, and never the token', () => {
    const principal = principalFromAuthInfo(
      authInfoFromClaims('secret-token', { sub: 'alice', client_id: 'app', scope: 'mcp', exp: 1 }, ISSUER, [RESOURCE]),
    );
    expect(principal).toEqual({
      id: `${ISSUER}|alice|app`,
      kind: 'person',
      subject: 'alice',
      clientId: 'app',
      issuer: ISSUER,
      scopes: ['mcp'],
    });
    expect(JSON.stringify(principal)).not.toContain('secret-token');
  });

  it('gives a token without a client claim no client', () => {
    const principal = principalFromAuthInfo(authInfoFromClaims('t', { sub: 'alice', exp: 1 }, ISSUER, [RESOURCE]));
    expect(principal.clientId).toBeUndefined();
    expect(principal.id).toBe(`${ISSUER}|alice`);
  });
});

describe('groupsFromAuthInfo', () => {
  const claims = { iss: ISSUER, sub: 'gina', aud: RESOURCE, scope: 'mcp' };
  it('reads the configured groups claim, a string or a list, dropping what is not a group name', () => {
    const info = (extra: Record<string, unknown>, claim?: string) =>
      authInfoFromClaims('t', { ...claims, ...extra }, ISSUER, [RESOURCE], { groupsClaim: claim });
    expect(groupsFromAuthInfo(info({ groups: ['finance', 7, '', 'finance', 'legal'] }, 'groups'))).toEqual([
      'finance',
      'legal',
    ]);
    expect(groupsFromAuthInfo(info({ roles: 'approvers' }, 'roles'))).toEqual(['approvers']);
    // Another claim, or no claim configured, grants no group.
    expect(groupsFromAuthInfo(info({ groups: ['finance'] }, 'roles'))).toEqual([]);
    expect(groupsFromAuthInfo(info({ groups: ['finance'] }))).toEqual([]);
    // The principal, and so every exchange it starts, never carries them.
    expect(principalFromAuthInfo(info({ groups: ['finance'] }, 'groups'))).not.toHaveProperty('groups');
  });
});

describe('serviceTokenOf', () => {
  it('takes a token without sub, or whose sub is its client, for a service’s own', () => {
    expect(serviceTokenOf({ client_id: 'bot' })).toBe(true);
    expect(serviceTokenOf({ sub: 'bot', client_id: 'bot' })).toBe(true);
    expect(serviceTokenOf({ sub: 'bot', azp: 'bot' })).toBe(true);
  });

  it('takes every other token for a person’s, unless a service claim says otherwise', () => {
    expect(serviceTokenOf({ sub: 'alice', client_id: 'desk' })).toBe(false);
    expect(serviceTokenOf({ sub: '8f2c', azp: 'bot', idtyp: 'app' } as TokenClaims)).toBe(false);
    expect(
      serviceTokenOf({ sub: '8f2c', azp: 'bot', idtyp: 'app' } as TokenClaims, [{ claim: 'idtyp', value: 'app' }]),
    ).toBe(true);
    expect(
      serviceTokenOf({ sub: '8f2c', azp: 'bot', idtyp: 'user' } as TokenClaims, [{ claim: 'idtyp', value: 'app' }]),
    ).toBe(false);
    expect(serviceTokenOf({ sub: '8f2c', client_id: 'bot-x' }, [{ claim: 'client_id' }])).toBe(true);
  });

  it('makes a service’s principal of kind service, keyed apart from a person of the same name', () => {
    const service = principalFromAuthInfo(
      authInfoFromClaims('t', { sub: 'bot', client_id: 'bot', exp: 1 }, ISSUER, [RESOURCE]),
    );
    const person = principalFromAuthInfo(
      authInfoFromClaims('t', { sub: 'bot', client_id: 'desk', exp: 1 }, ISSUER, [RESOURCE]),
    );
    expect(service.kind).toBe('service');
    expect(person.kind).toBe('person');
    expect(personIdOf(service)).toBe(`${ISSUER}|client:bot`);
    expect(personIdOf(person)).toBe(`${ISSUER}|bot`);
  });
});

describe('a person known by the deployment’s identity claim', () => {
  const principal = (claims: TokenClaims & Record<string, unknown>) =>
    principalFromAuthInfo(authInfoFromClaims('t', { exp: 1, ...claims }, ISSUER, [RESOURCE], { identityClaim: 'oid' }));

  it('keys the person by the claim, and a service by its client as ever', () => {
    expect(personIdOf(principal({ sub: 'pairwise-1', client_id: 'desk', oid: 'a1b2' }))).toBe('claim:oid|a1b2');
    expect(callerUnmatchedOf(principal({ sub: 'pairwise-1', client_id: 'desk', oid: 'a1b2' }))).toBeUndefined();
    expect(personIdOf(principal({ sub: 'bot', client_id: 'bot' }))).toBe(`${ISSUER}|client:bot`);
  });

  it('says why a person without the claim cannot be matched', () => {
    expect(callerUnmatchedOf(principal({ sub: 'alice', client_id: 'desk' }))).toMatch(/no oid claim/);
    expect(callerUnmatchedOf(principal({ sub: 'bot', client_id: 'bot' }))).toBeUndefined();
  });
});

describe('the tenant a token names (TENANT_CLAIM)', () => {
  const principal = (claims: TokenClaims & Record<string, unknown>, tenantClaim?: string) =>
    principalFromAuthInfo(
      authInfoFromClaims('t', { exp: 1, ...claims }, ISSUER, [RESOURCE], tenantClaim ? { tenantClaim } : {}),
    );

  it('is read from the configured claim, under the issuer, for people and services alike', () => {
    expect(principal({ sub: 'alice', client_id: 'desk', tid: 'acme' }, 'tid').tenant).toBe(`${ISSUER}|acme`);
    expect(principal({ sub: 'bot', client_id: 'bot', tid: 'acme' }, 'tid').tenant).toBe(`${ISSUER}|acme`);
  });

  it('is none without the claim, or when the deployment reads no tenant; never in what exchanges record', () => {
    expect(principal({ sub: 'alice', client_id: 'desk' }, 'tid').tenant).toBeUndefined();
    expect(principal({ sub: 'alice', client_id: 'desk', tid: 'acme' }).tenant).toBeUndefined();
    expect(detailsOf(principal({ sub: 'alice', client_id: 'desk', tid: 'acme' }, 'tid'))).not.toHaveProperty('tenant');
    expect(principal({ sub: 'alice', client_id: 'desk', tid: 'acme' }, 'tid').id).toBe(
      principal({ sub: 'alice', client_id: 'desk' }).id,
    );
  });
});
