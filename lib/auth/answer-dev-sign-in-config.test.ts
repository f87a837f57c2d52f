// ANSWER_DEV_SIGN_IN checked with its neighbours, through parseConfig as the processes read them.
import { randomBytes } from 'node:crypto';
import { ConfigError, parseConfig } from '../config';

const ANSWER_KEY = randomBytes(32).toString('base64');
const minimal = (): Record<string, string | undefined> => ({
  DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
  REQUEST_STATE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  PAYLOAD_CODEC_KEYS: `p1:${randomBytes(32).toString('base64')}`,
  ANSWER_SESSION_KEYS: `a1:${ANSWER_KEY}`,
});
const devSignIn = { ANSWER_DEV_SIGN_IN: 'true', ANSWER_PUBLIC_URL: 'http://127.0.0.1:3000' };
const oauth = {
  AUTH_MODE: 'oauth',
  MCP_RESOURCE_URL: 'https://mcp.example.com/mcp',
  OAUTH_ISSUERS: 'https://as.example.com',
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

describe('the development sign-in configuration', () => {
  it('is off by default, and with false', () => {
    expect(parseConfig(minimal()).answers).toEqual({});
    expect(parseConfig({ ...minimal(), ANSWER_DEV_SIGN_IN: 'false' }).answers).toEqual({});
  });

  it('turns the answer page on with AUTH_MODE=off (the default), under ANSWER_PUBLIC_URL', () => {
    const { answers } = parseConfig({ ...minimal(), ...devSignIn, ANSWER_SESSION_TTL_MS: '120000' });
    expect(answers).toEqual({
      devSignIn: { publicOrigin: 'http://127.0.0.1:3000', sessionTtlMs: 120_000 },
      publicOrigin: 'http://127.0.0.1:3000',
      sessions: { keys: [{ kid: 'a1', key: Buffer.from(ANSWER_KEY, 'base64') }], epoch: '' },
    });
    expect(parseConfig({ ...minimal(), ...devSignIn, AUTH_MODE: 'off' }).answers.devSignIn).toBeDefined();
  });

  it('is refused with AUTH_MODE=oauth, in one line naming both variables', () => {
    // The same variables without it start: the refusal is the development sign-in's own.
    expect(parseConfig({ ...minimal(), ...oauth }).auth.mode).toBe('oauth');
    const message = problem({ ...minimal(), ...oauth, ...devSignIn });
    const line = message.split('\n')[1]!;
    expect(line).toContain('ANSWER_DEV_SIGN_IN is malformed: only with AUTH_MODE=off (AUTH_MODE is oauth)');
    expect(message.split('\n')).toHaveLength(2);
  });

  it.each([
    [{ ANSWER_OIDC_ISSUER: 'https://id.example.com' }, 'ANSWER_DEV_SIGN_IN is malformed: not with ANSWER_OIDC_ISSUER'],
    [{ ANSWER_OIDC_CLIENT_ID: 'answers' }, 'ANSWER_DEV_SIGN_IN is malformed: not with ANSWER_OIDC_CLIENT_ID'],
    [{ ANSWER_OIDC_CLIENT_SECRET: 's' }, 'ANSWER_DEV_SIGN_IN is malformed: not with ANSWER_OIDC_CLIENT_SECRET'],
    [{ ANSWER_PUBLIC_URL: undefined }, 'ANSWER_PUBLIC_URL is missing: required with ANSWER_DEV_SIGN_IN'],
    [{ ANSWER_PUBLIC_URL: 'http://127.0.0.1:3000/answers' }, 'ANSWER_PUBLIC_URL is malformed: must be an origin'],
    [{ ANSWER_PUBLIC_URL: 'http://dev.example.com' }, 'ANSWER_PUBLIC_URL is malformed: must be https'],
    [{ ANSWER_DEV_SIGN_IN: 'yes' }, 'ANSWER_DEV_SIGN_IN is malformed: must be true or false'],
    [{ ANSWER_SESSION_KEYS: undefined }, 'ANSWER_SESSION_KEYS is missing: required with ANSWER_DEV_SIGN_IN'],
  ])('refuses %j', (change, message) => {
    expect(problem({ ...minimal(), ...devSignIn, ...change })).toContain(message);
  });

  it('leaves the OpenID Connect sign-in as it was, its origin the page’s', () => {
    const { answers } = parseConfig({
      ...minimal(),
      ANSWER_OIDC_ISSUER: 'https://id.example.com',
      ANSWER_OIDC_CLIENT_ID: 'answers',
      ANSWER_PUBLIC_URL: 'https://mcp.example.com',
    });
    expect(answers.devSignIn).toBeUndefined();
    expect(answers.signIn?.issuer).toBe('https://id.example.com');
    expect(answers.publicOrigin).toBe('https://mcp.example.com');
  });
});
