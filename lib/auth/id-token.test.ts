// ID tokens signed here with jose, their keys served by a real HTTP endpoint as a provider's
// jwks_uri: what verifies, and each claim or header that makes one another sign-in's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { AuthorizationServerUnavailable } from './auth-errors';
import { allowedAlgorithms, createIdTokenVerifier, type IdTokenVerifier } from './id-token';
import type { OidcDiscovery } from './oidc-discovery';
import { SignInRefused } from './sign-in-refused';

let server: Server;
let issuer: string;
let privateKey: CryptoKey;
let verify: IdTokenVerifier;
const CLIENT = 'answers';
const NONCE = 'the-nonce';

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  privateKey = pair.privateKey;
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256' }] });
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(jwks));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const discovery: OidcDiscovery = {
    get: () =>
      Promise.resolve({
        issuer,
        authorization_endpoint: `${issuer}/a`,
        token_endpoint: `${issuer}/t`,
        jwks_uri: `${issuer}/jwks`,
      }),
  };
  verify = createIdTokenVerifier({ issuer, clientId: CLIENT, clockToleranceS: 0, timeoutMs: 2_000, discovery });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function idToken(claims: JWTPayload = {}, header: Record<string, unknown> = {}) {
  const iat = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: issuer, aud: CLIENT, sub: 'alice', iat, exp: iat + 300, nonce: NONCE, ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1', ...header })
    .sign(privateKey);
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Error,
  );

describe('ID token verification', () => {
  it('takes a token of this issuer, for this client and this sign-in', async () => {
    expect((await verify(await idToken({ groups: ['g'] }), NONCE)).groups).toEqual(['g']);
  });

  it.each([
    ['another nonce', () => idToken({ nonce: 'other' }), 'nonce'],
    ['another audience', () => idToken({ aud: 'someone-else' }), 'aud'],
    ['another issuer', () => idToken({ iss: 'https://id.example.com' }), 'iss'],
    ['expired', () => idToken({ exp: Math.floor(Date.now() / 1000) - 60 }), 'ERR_JWT_EXPIRED'],
    ['another authorized party', () => idToken({ azp: 'other-client' }), 'azp'],
    ['several audiences without azp', () => idToken({ aud: [CLIENT, 'other'] }), 'azp'],
    ['an access token', () => idToken({}, { typ: 'at+jwt' }), 'access token'],
    ['another key id', () => idToken({}, { kid: 'k9' }), 'ERR_JWKS_NO_MATCHING_KEY'],
  ])('refuses %s', async (_name, make, reason) => {
    const error = await refusal(verify(await make(), NONCE));
    expect(error).toBeInstanceOf(SignInRefused);
    expect((error as SignInRefused).reason).toContain(reason);
  });

  it('refuses no nonce, and an unsigned or HMAC token', async () => {
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ iss: issuer, aud: CLIENT, sub: 'a', nonce: NONCE, exp: 2e9, iat: 1 })).toString('base64url')}.`;
    expect(await refusal(verify(unsigned, NONCE))).toBeInstanceOf(SignInRefused);
    const hmac = await new SignJWT({ nonce: NONCE })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(issuer)
      .setAudience(CLIENT)
      .setSubject('a')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a-client-secret-of-32-characters!'));
    expect(await refusal(verify(hmac, NONCE))).toBeInstanceOf(SignInRefused);
    expect(allowedAlgorithms(['HS256', 'none', 'ES256'])).toEqual(['ES256']);
    expect(allowedAlgorithms(undefined)).toEqual(['RS256']);
  });

  it('says the issuer is unavailable when its keys cannot be fetched', async () => {
    const discovery: OidcDiscovery = {
      get: () =>
        Promise.resolve({
          issuer,
          authorization_endpoint: 'x',
          token_endpoint: 'x',
          jwks_uri: 'http://127.0.0.1:1/jwks',
        }),
    };
    const offline = createIdTokenVerifier({ issuer, clientId: CLIENT, clockToleranceS: 0, timeoutMs: 500, discovery });
    expect(await refusal(offline(await idToken(), NONCE))).toBeInstanceOf(AuthorizationServerUnavailable);
  });
});
