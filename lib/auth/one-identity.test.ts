import { randomBytes } from 'node:crypto';
import { parseConfig } from '../config';

const base = {
  DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
  PAYLOAD_CODEC_KEYS: `p1:${randomBytes(32).toString('base64')}`,
  ANSWER_SESSION_KEYS: `a1:${randomBytes(32).toString('base64')}`,
  AUTH_MODE: 'oauth',
  MCP_RESOURCE_URL: 'https://mcp.example.com/mcp',
  OAUTH_ISSUERS: 'https://id.example.com/realms/mcp',
  ANSWER_OIDC_CLIENT_ID: 'answer-page',
  ANSWER_PUBLIC_URL: 'https://mcp.example.com',
  REQUEST_STATE_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
};

const refusal = (env: Record<string, string>): string => {
  try {
    parseConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('one identity for a person across /mcp and the answer page', () => {
  it('starts when the page signs people in at an issuer of the access tokens, spelled alike', () => {
    expect(
      parseConfig({ ...base, ANSWER_OIDC_ISSUER: 'https://id.example.com/realms/mcp' }).answers.signIn?.issuer,
    ).toBe('https://id.example.com/realms/mcp');
  });

  it.each([
    ['a trailing slash', 'https://id.example.com/realms/mcp/'],
    ['another provider', 'https://login.example.org'],
  ])('refuses to start with %s, naming both variables and the way out', (_case, issuer) => {
    expect(refusal({ ...base, ANSWER_OIDC_ISSUER: issuer })).toMatch(
      /ANSWER_OIDC_ISSUER \(.*\) is not one of OAUTH_ISSUERS .* ANSWER_IDENTITY_CLAIM/,
    );
  });

  it('starts with another issuer when a claim keys the person on both sides', () => {
    const config = parseConfig({
      ...base,
      ANSWER_OIDC_ISSUER: 'https://login.example.org',
      ANSWER_IDENTITY_CLAIM: 'oid',
    });
    expect(config.answers.signIn?.identityClaim).toBe('oid');
    expect(config.auth).toMatchObject({ identityClaim: 'oid' });
  });
});
