// What a caller can make introspection ask of the authorization server, against a real HTTP endpoint.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../config';
import type { OAuthConfig } from './auth-config';
import { AuthorizationServerUnavailable } from './auth-errors';
import { createIntrospector, INACTIVE_ANSWER_CACHE_MS } from './introspection';
import { TokenRefused } from './token-refusal';

const ISSUER = 'https://auth.example.com';
const RESOURCE = 'https://mcp.example.com/mcp';

let server: Server;
let requests = 0;
let delayMs = 0;
let authorization: string | undefined;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests += 1;
    authorization = req.headers.authorization;
    req.resume();
    setTimeout(() => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ active: false }));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests = 0;
  delayMs = 0;
});

function introspector(
  maxConcurrent: number,
  now: () => number = Date.now,
  issuers: string[] = [ISSUER],
  metadata: { get: (issuer: string) => Promise<{ issuer: string; introspection_endpoint?: string }> } = {
    get: async (issuer) => ({ issuer, introspection_endpoint: url }),
  },
) {
  const auth = parseConfig({
    DATABASE_URL: 'postgres://x',
    REQUEST_STATE_KEYS: `k:${Buffer.alloc(32, 1).toString('base64')}`,
    PAYLOAD_CODEC_KEYS: `c:${Buffer.alloc(32, 2).toString('base64')}`,
    AUTH_MODE: 'oauth',
    MCP_RESOURCE_URL: RESOURCE,
    OAUTH_ISSUERS: issuers.join(','),
    OAUTH_INTROSPECTION_CLIENT_ID: 'rs',
    OAUTH_INTROSPECTION_CLIENT_SECRET: 'secret',
    OAUTH_INTROSPECTION_MAX_CONCURRENT: String(maxConcurrent),
  }).auth as OAuthConfig & { introspection: NonNullable<OAuthConfig['introspection']> };
  return createIntrospector(auth, metadata, now);
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('introspection traffic', () => {
  it('keeps an inactive answer for a few seconds: the same forged token costs one request', async () => {
    let clock = 1_000_000;
    const introspect = introspector(8, () => clock);
    for (let i = 0; i < 5; i += 1) expect(await refusal(introspect('forged', [RESOURCE]))).toBeInstanceOf(TokenRefused);
    expect(requests).toBe(1);
    clock += INACTIVE_ANSWER_CACHE_MS + 1;
    await refusal(introspect('forged', [RESOURCE]));
    expect(requests).toBe(2);
  });

  it('authenticates as its client by HTTP Basic (client_secret_basic)', async () => {
    await refusal(introspector(8)('opaque-basic', [RESOURCE]));
    expect(authorization).toBe(`Basic ${Buffer.from('rs:secret').toString('base64')}`);
  });

  it('merges identical questions in flight into one request', async () => {
    delayMs = 100;
    const introspect = introspector(8);
    const answers = await Promise.all(Array.from({ length: 10 }, () => refusal(introspect('same', [RESOURCE]))));
    expect(answers.every((a) => a instanceof TokenRefused)).toBe(true);
    expect(requests).toBe(1);
  });

  it('has at most OAUTH_INTROSPECTION_MAX_CONCURRENT requests out; past it, 503 at once', async () => {
    delayMs = 200;
    const introspect = introspector(2);
    const answers = await Promise.all(['a', 'b', 'c', 'd'].map((token) => refusal(introspect(token, [RESOURCE]))));
    expect(answers.filter((a) => a instanceof AuthorizationServerUnavailable)).toHaveLength(2);
    expect(answers.filter((a) => a instanceof TokenRefused)).toHaveLength(2);
    expect(requests).toBe(2);
  });

  it('never asks another issuer while the one that introspects is down: its tokens go nowhere else, and the caller gets 503, not 401', async () => {
    const DOWN = 'https://down.example.com';
    let down = true;
    const metadata = {
      get: async (issuer: string) => {
        if (issuer === DOWN && down) throw new AuthorizationServerUnavailable('backing off', DOWN);
        return { issuer, introspection_endpoint: issuer === DOWN ? `${url}?at=down` : url };
      },
    };
    const introspect = introspector(8, Date.now, [DOWN, ISSUER], metadata);
    expect(await refusal(introspect('live-at-down', [RESOURCE]))).toBeInstanceOf(AuthorizationServerUnavailable);
    expect(requests).toBe(0);
    // No answer was kept meanwhile: once the issuer is back, it is asked, and its answer counts.
    down = false;
    expect(await refusal(introspect('live-at-down', [RESOURCE]))).toBeInstanceOf(TokenRefused);
    expect(requests).toBe(1);
  });

  it('asks the first issuer that names an endpoint, passing over one that names none', async () => {
    const NONE = 'https://jwt-only.example.com';
    const metadata = {
      get: async (issuer: string) => (issuer === NONE ? { issuer } : { issuer, introspection_endpoint: url }),
    };
    const introspect = introspector(8, Date.now, [NONE, ISSUER], metadata);
    expect(await refusal(introspect('opaque', [RESOURCE]))).toBeInstanceOf(TokenRefused);
    expect(requests).toBe(1);
  });
});
