// The ANSWER_* variables checked together, through parseConfig as the processes read them.
import { randomBytes } from 'node:crypto';
import { ConfigError, parseConfig } from '../config';

const minimal = (): Record<string, string | undefined> => ({
  DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
  REQUEST_STATE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  PAYLOAD_CODEC_KEYS: `p1:${randomBytes(32).toString('base64')}`,
});
const signIn = {
  ANSWER_OIDC_ISSUER: 'https://id.example.com/realms/x',
  ANSWER_OIDC_CLIENT_ID: 'answers',
  ANSWER_PUBLIC_URL: 'https://mcp.example.com/',
};

function problem(source: Record<string, string | undefined>): string {
  try {
    parseConfig(source);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('answer sign-in configuration', () => {
  it('is off without ANSWER_OIDC_ISSUER', () => {
    expect(parseConfig(minimal()).answers).toEqual({});
  });

  it('takes the defaults, a public client without a secret, and builds the redirect URI', () => {
    expect(parseConfig({ ...minimal(), ...signIn }).answers.signIn).toEqual({
      issuer: 'https://id.example.com/realms/x',
      clientId: 'answers',
      publicOrigin: 'https://mcp.example.com',
      redirectUri: 'https://mcp.example.com/answers/callback',
      scopes: ['openid', 'profile', 'email'],
      groupsClaim: 'groups',
      sessionTtlMs: 3_600_000,
      requestTimeoutMs: 5_000,
      clockToleranceS: 30,
    });
    const confidential = parseConfig({ ...minimal(), ...signIn, ANSWER_OIDC_CLIENT_SECRET: 's' });
    expect(confidential.answers.signIn?.clientSecret).toBe('s');
  });

  it.each([
    [{ ANSWER_OIDC_CLIENT_ID: undefined }, 'ANSWER_OIDC_CLIENT_ID is missing'],
    [{ ANSWER_PUBLIC_URL: undefined }, 'ANSWER_PUBLIC_URL is missing'],
    [{ ANSWER_OIDC_ISSUER: 'http://id.example.com' }, 'ANSWER_OIDC_ISSUER is malformed: must be https'],
    [{ ANSWER_OIDC_ISSUER: 'https://id.example.com?x=1' }, 'ANSWER_OIDC_ISSUER is malformed'],
    [{ ANSWER_PUBLIC_URL: 'https://mcp.example.com/answers' }, 'ANSWER_PUBLIC_URL is malformed: must be an origin'],
    [{ ANSWER_PUBLIC_URL: 'http://mcp.example.com' }, 'ANSWER_PUBLIC_URL is malformed: must be https'],
    [{ ANSWER_OIDC_SCOPES: 'profile email' }, 'ANSWER_OIDC_SCOPES is malformed: must include openid'],
    [{ ANSWER_SESSION_TTL_MS: '1000' }, 'ANSWER_SESSION_TTL_MS is malformed'],
    [{ ANSWER_OIDC_ISSUER: undefined }, 'ANSWER_OIDC_ISSUER is missing: ANSWER_OIDC_CLIENT_ID is set'],
  ])('refuses %j', (change, message) => {
    expect(problem({ ...minimal(), ...signIn, ...change })).toContain(message);
  });

  it('takes http on loopback, for a local issuer and API', () => {
    const local = parseConfig({
      ...minimal(),
      ANSWER_OIDC_ISSUER: 'http://127.0.0.1:8080',
      ANSWER_OIDC_CLIENT_ID: 'answers',
      ANSWER_PUBLIC_URL: 'http://localhost:3000',
      ANSWER_OIDC_SCOPES: 'openid,groups',
    });
    expect(local.answers.signIn).toMatchObject({
      redirectUri: 'http://localhost:3000/answers/callback',
      scopes: ['openid', 'groups'],
    });
  });
});
