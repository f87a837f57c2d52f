// Discovery against a real HTTP endpoint that answers what each test sets: the issuer checked
// equal, endpoints https (or loopback), PKCE S256, bodies bounded, failures backed off.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationServerUnavailable } from './auth-errors';
import { BodyTooLarge, boundedText } from './bounded-body';
import { createOidcDiscovery, discoveryUrl, MAX_METADATA_BYTES } from './oidc-discovery';

let server: Server;
let issuer: string;
let answer: (issuer: string) => { status?: number; body: string };
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests += 1;
    if (req.url !== '/.well-known/openid-configuration') return res.writeHead(404).end();
    const { status = 200, body } = answer(issuer);
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const metadata = (at: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    issuer: at,
    authorization_endpoint: `${at}/auth`,
    token_endpoint: `${at}/token`,
    jwks_uri: `${at}/jwks`,
    ...extra,
  });

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as Error,
  );

describe('OpenID provider discovery', () => {
  it('appends the well-known path to the issuer’s own', () => {
    expect(discoveryUrl('https://id.example.com/realms/x/')).toBe(
      'https://id.example.com/realms/x/.well-known/openid-configuration',
    );
  });

  it('reads the metadata once and keeps it', async () => {
    answer = (at) => ({ body: metadata(at) });
    const discovery = createOidcDiscovery(issuer, 2_000);
    requests = 0;
    expect((await discovery.get()).token_endpoint).toBe(`${issuer}/token`);
    await discovery.get();
    expect(requests).toBe(1);
  });

  it.each([
    ['another issuer', () => ({ body: metadata('http://127.0.0.1:1') }), 'names another issuer'],
    [
      'an endpoint off https',
      (at: string) => ({ body: metadata(at, { token_endpoint: 'http://id.example.com/token' }) }),
      'is not https',
    ],
    ['no S256', (at: string) => ({ body: metadata(at, { code_challenge_methods_supported: ['plain'] }) }), 'PKCE'],
    ['no document', () => ({ body: '{"issuer": 1}' }), 'not an OpenID provider configuration'],
    ['an error', () => ({ status: 500, body: '' }), 'HTTP 500'],
    [
      'too much',
      (at: string) => ({ body: metadata(at, { pad: 'x'.repeat(MAX_METADATA_BYTES) }) }),
      'could not be read',
    ],
  ])('refuses %s, and backs off before asking again', async (_name, reply, message) => {
    answer = reply;
    let clock = 0;
    const discovery = createOidcDiscovery(issuer, 2_000, () => clock);
    const error = await failure(discovery.get());
    expect(error).toBeInstanceOf(AuthorizationServerUnavailable);
    expect(error!.message).toContain(message);
    requests = 0;
    expect((await failure(discovery.get()))!.message).toContain('failed lately');
    expect(requests).toBe(0);
    answer = (at) => ({ body: metadata(at) });
    clock += 5_000;
    expect((await discovery.get()).issuer).toBe(issuer);
  });
});

describe('bounded bodies', () => {
  it('reads up to the bound and refuses past it, declared or not', async () => {
    expect(await boundedText(new Response('abc'), 3)).toBe('abc');
    await expect(boundedText(new Response('abcd'), 3)).rejects.toBeInstanceOf(BodyTooLarge);
    const declared = new Response('ab', { headers: { 'content-length': '99' } });
    await expect(boundedText(declared, 3)).rejects.toBeInstanceOf(BodyTooLarge);
  });
});
