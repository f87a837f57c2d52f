// The ANSWER_* variables checked together, through parseConfig as the processes read them.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, parseConfig } from '../config';

const REQUEST_STATE_KEY = randomBytes(32).toString('base64');
const ANSWER_KEY = randomBytes(32).toString('base64');
const minimal = (): Record<string, string | undefined> => ({
  DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
  REQUEST_STATE_KEYS: `k1:${REQUEST_STATE_KEY}`,
  PAYLOAD_CODEC_KEYS: `p1:${randomBytes(32).toString('base64')}`,
  ANSWER_SESSION_KEYS: `a1:${ANSWER_KEY}`,
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
      sessionRefreshMs: 900_000,
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
    [{ ANSWER_SESSION_REFRESH_MS: '1000' }, 'ANSWER_SESSION_REFRESH_MS is malformed'],
    [{ ANSWER_SESSION_KEYS: undefined }, 'ANSWER_SESSION_KEYS is missing: required with ANSWER_OIDC_ISSUER'],
    [{ ANSWER_SESSION_KEYS: 'a1:c2hvcnQ=' }, 'ANSWER_SESSION_KEYS: key "a1" must decode to 32 bytes'],
    [{ ANSWER_SESSION_KEYS: 'not a ring' }, 'ANSWER_SESSION_KEYS is malformed'],
    [{ ANSWER_SESSION_EPOCH: 'two words' }, 'ANSWER_SESSION_EPOCH is malformed'],
    [{ ANSWER_OIDC_ISSUER: undefined }, 'ANSWER_OIDC_ISSUER is missing: ANSWER_OIDC_CLIENT_ID is set'],
  ])('refuses %j', (change, message) => {
    expect(problem({ ...minimal(), ...signIn, ...change })).toContain(message);
  });

  it('takes ANSWER_OIDC_SCOPES comma-separated (the default’s form) or space-separated', () => {
    const scopesOf = (value: string) =>
      parseConfig({ ...minimal(), ...signIn, ANSWER_OIDC_SCOPES: value }).answers.signIn?.scopes;
    expect(scopesOf('openid,profile,email,groups')).toEqual(['openid', 'profile', 'email', 'groups']);
    expect(scopesOf('openid profile email groups')).toEqual(['openid', 'profile', 'email', 'groups']);
    expect(scopesOf('openid, groups ,openid')).toEqual(['openid', 'groups']);
  });

  it('keeps every scope of the documented form through an env file a shell sources, unquoted', () => {
    // `set -a; . ./service.env` is how many run the service: an unquoted value with spaces is cut
    // there (the rest runs as a command), so the default and the docs give the comma form.
    const dir = mkdtempSync(join(tmpdir(), 'scopes-env-'));
    const file = join(dir, 'service.env');
    writeFileSync(file, 'ANSWER_OIDC_SCOPES=openid,profile,email,groups\n');
    const sourced = execFileSync('/bin/sh', ['-c', `set -a; . "$1"; printf %s "$ANSWER_OIDC_SCOPES"`, 'sh', file], {
      encoding: 'utf8',
    });
    rmSync(dir, { recursive: true });
    const { answers } = parseConfig({ ...minimal(), ...signIn, ANSWER_OIDC_SCOPES: sourced });
    expect(answers.signIn?.scopes).toEqual(['openid', 'profile', 'email', 'groups']);
  });

  it('seals the page with its own ring and the epoch, and refreshes at most as late as the session ends', () => {
    const { answers } = parseConfig({
      ...minimal(),
      ...signIn,
      ANSWER_SESSION_EPOCH: 'after-the-leak',
      ANSWER_SESSION_TTL_MS: '600000',
    });
    expect(answers.sessions?.keys.map(({ kid, key }) => [kid, key.toString('base64')])).toEqual([['a1', ANSWER_KEY]]);
    expect(answers.sessions?.epoch).toBe('after-the-leak');
    expect(answers.signIn?.sessionRefreshMs).toBe(600_000);
    expect(parseConfig({ ...minimal(), ...signIn }).answers.sessions?.epoch).toBe('');
  });

  it('refuses a cookie key the worker also holds (a key of REQUEST_STATE_KEYS)', () => {
    expect(
      problem({ ...minimal(), ...signIn, ANSWER_SESSION_KEYS: `a1:${ANSWER_KEY},k9:${REQUEST_STATE_KEY}` }),
    ).toContain('ANSWER_SESSION_KEYS is malformed: a key of it is also in REQUEST_STATE_KEYS or PAYLOAD_CODEC_KEYS');
  });

  it('needs the cookie keys of a process that serves the page, never of the worker, which is not given them', () => {
    const withoutKeys = { ...minimal(), ...signIn, ANSWER_SESSION_KEYS: undefined };
    expect(() => parseConfig(withoutKeys, 'api')).toThrow(/ANSWER_SESSION_KEYS is missing/);
    expect(() => parseConfig(withoutKeys, 'all')).toThrow(/ANSWER_SESSION_KEYS is missing/);
    const worker = parseConfig(withoutKeys, 'worker');
    expect(worker.answers.signIn).toBeDefined();
    expect(worker.answers.sessions).toBeUndefined();
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
