// What forged tokens can make the JWT verifier ask of an authorization server's key set, against a
// real HTTP endpoint that counts what it is asked: while it is down, and once it is back.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { parseConfig } from '../config';
import type { OAuthConfig } from './auth-config';
import { AuthorizationServerUnavailable } from './auth-errors';
import { FETCH_BACKOFF_MAX_MS } from './fetch-backoff';
import { createJwtVerifier } from './jwt-verifier';
import { TokenRefused } from './token-refusal';

const ISSUER = 'https://auth.example.com';
const RESOURCE = 'https://mcp.example.com/mcp';
const COOLDOWN_MS = 1_000;

let server: Server;
let jwksUrl: string;
/** Key-set requests the endpoint received. */
let fetches = 0;
/** What it answers: the key set, or 503 (an outage). */
let up = true;
let publicJwk: JWK;
let privateKey: CryptoKey;
let stranger: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  stranger = (await generateKeyPair('RS256')).privateKey;
  server = createServer((_req, res) => {
    fetches += 1;
    if (!up) return res.writeHead(503).end('down for maintenance');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// jose's cooldown and the back-off both read Date.now: one clock the test moves.
let clock = 1_800_000_000_000;
beforeEach(() => {
  fetches = 0;
  up = true;
  jest.spyOn(Date, 'now').mockImplementation(() => clock);
});
afterEach(() => jest.restoreAllMocks());

function verifier() {
  const auth = parseConfig({
    DATABASE_URL: 'postgres://x',
    REQUEST_STATE_KEYS: `k:${Buffer.alloc(32, 1).toString('base64')}`,
    PAYLOAD_CODEC_KEYS: `c:${Buffer.alloc(32, 2).toString('base64')}`,
    AUTH_MODE: 'oauth',
    MCP_RESOURCE_URL: RESOURCE,
    OAUTH_ISSUERS: ISSUER,
    OAUTH_JWKS_URI: jwksUrl,
    OAUTH_JWKS_COOLDOWN_MS: String(COOLDOWN_MS),
  }).auth as OAuthConfig;
  const metadata = { get: async () => ({ issuer: ISSUER }) };
  return createJwtVerifier(auth, metadata);
}

/** A token for this resource, signed by the issuer's key or, forged, by a stranger's under a made-up key id. */
function token(kid: string, key: CryptoKey = kid === 'k1' ? privateKey : stranger) {
  const seconds = Math.floor(clock / 1000);
  return new SignJWT({ client_id: 'alice', scope: 'mcp' })
    .setProtectedHeader({ alg: 'RS256', kid, typ: 'at+jwt' })
    .setIssuer(ISSUER)
    .setAudience(RESOURCE)
    .setSubject('alice')
    .setIssuedAt(seconds)
    .setExpirationTime(seconds + 300)
    .sign(key);
}

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: unknown) =>
      error instanceof AuthorizationServerUnavailable
        ? 'unavailable'
        : error instanceof TokenRefused
          ? 'refused'
          : error,
  );

/** `count` forged tokens, each with a key id never seen before, sent one after another. */
async function forgedStorm(verify: ReturnType<typeof verifier>, count: number) {
  const answers = [];
  for (let i = 0; i < count; i += 1) answers.push(await outcome(verify(await token(`forged-${i}`), [RESOURCE])));
  return answers;
}

describe('key-set fetches a caller can cause', () => {
  it('fetches at most once per cooldown for tokens with made-up key ids while the issuer is up', async () => {
    const verify = verifier();
    expect(await outcome(verify(await token('k1'), [RESOURCE]))).toBe('accepted');
    clock += COOLDOWN_MS;
    expect(new Set(await forgedStorm(verify, 20))).toEqual(new Set(['refused']));
    expect(fetches).toBe(2);
  });

  it('does not fetch for each forged token while the issuer is down: one failed fetch, then 503 at once', async () => {
    const verify = verifier();
    expect(await outcome(verify(await token('k1'), [RESOURCE]))).toBe('accepted');
    up = false;
    clock += COOLDOWN_MS;
    fetches = 0;
    // Without the back-off each of these fetched: jose's cooldown counts from the last success.
    expect(new Set(await forgedStorm(verify, 20))).toEqual(new Set(['unavailable']));
    expect(fetches).toBe(1);
    // The issuer's own key is still in the cache: its tokens pass meanwhile.
    expect(await outcome(verify(await token('k1'), [RESOURCE]))).toBe('accepted');

    // The back-off doubles with each failure in a row: after one cooldown, one more try ...
    clock += COOLDOWN_MS;
    expect(new Set(await forgedStorm(verify, 5))).toEqual(new Set(['unavailable']));
    expect(fetches).toBe(2);
    // ... then none for two cooldowns.
    clock += COOLDOWN_MS;
    await forgedStorm(verify, 5);
    expect(fetches).toBe(2);
    clock += COOLDOWN_MS;
    await forgedStorm(verify, 5);
    expect(fetches).toBe(3);

    // Back up: the first attempt after the back-off fetches, and the cooldown rules again.
    up = true;
    clock += 4 * COOLDOWN_MS;
    expect(new Set(await forgedStorm(verify, 5))).toEqual(new Set(['refused']));
    expect(fetches).toBe(4);
  });

  it('holds a cache that went stale during an outage to the same back-off', async () => {
    const verify = verifier();
    expect(await outcome(verify(await token('k1'), [RESOURCE]))).toBe('accepted');
    up = false;
    clock += 600_000; // past the cache's default maximum age
    fetches = 0;
    const answers = await Promise.all(
      Array.from({ length: 10 }, async () => outcome(verify(await token('k1'), [RESOURCE]))),
    );
    expect(new Set(answers)).toEqual(new Set(['unavailable']));
    expect(fetches).toBe(1);
    // However long the outage lasts, no more than one attempt per FETCH_BACKOFF_MAX_MS.
    for (let i = 0; i < 10; i += 1) {
      clock += FETCH_BACKOFF_MAX_MS;
      await outcome(verify(await token('k1'), [RESOURCE]));
      await outcome(verify(await token('k1'), [RESOURCE]));
    }
    expect(fetches).toBe(11);
    up = true;
    clock += FETCH_BACKOFF_MAX_MS;
    expect(await outcome(verify(await token('k1'), [RESOURCE]))).toBe('accepted');
  });
});

describe('a token header a client wrote', () => {
  it.each([[42], [['at+jwt']], [{ typ: 'at+jwt' }], [null]])(
    'refuses a typ of %j as an invalid token, not a fault',
    async (typ) => {
      const forged = await new SignJWT({ client_id: 'alice', scope: 'mcp' })
        .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ } as never)
        .setIssuer(ISSUER)
        .setAudience(RESOURCE)
        .setSubject('alice')
        .setIssuedAt(Math.floor(clock / 1000))
        .setExpirationTime(Math.floor(clock / 1000) + 300)
        .sign(privateKey);
      const refused = await verifier()(forged, [RESOURCE]).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(TokenRefused);
      expect((refused as TokenRefused).reason).toBe('typ is not a string');
    },
  );
});
