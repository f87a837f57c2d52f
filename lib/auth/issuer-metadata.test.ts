// What tokens naming a trusted issuer can make this server ask of that issuer's metadata while it
// fails, against a real HTTP endpoint that counts what it is asked.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthorizationServerUnavailable } from './auth-errors';
import { createIssuerMetadata, metadataUrls } from './issuer-metadata';

const BACKOFF_MS = 1_000;

let server: Server;
let issuer: string;
let requests = 0;
let up = false;

beforeAll(async () => {
  server = createServer((_req, res) => {
    requests += 1;
    if (!up) return res.writeHead(500).end();
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('issuer metadata', () => {
  it('asks RFC 8414 first, then OpenID Connect Discovery, path inserted', () => {
    expect(metadataUrls('https://auth.example.com/realms/x')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/realms/x',
      'https://auth.example.com/.well-known/openid-configuration/realms/x',
      'https://auth.example.com/realms/x/.well-known/openid-configuration',
    ]);
  });

  it('asks a failing issuer once per back-off, not once per token, and doubles the wait', async () => {
    let clock = 1_000_000;
    const metadata = createIssuerMetadata({
      timeoutMs: 2_000,
      allowHttp: false,
      backoffMs: BACKOFF_MS,
      now: () => clock,
    });
    const first = await failure(metadata.get(issuer));
    expect(first).toBeInstanceOf(AuthorizationServerUnavailable);
    expect(requests).toBe(1);
    for (let i = 0; i < 20; i += 1) {
      const error = await failure(metadata.get(issuer));
      expect(error).toBeInstanceOf(AuthorizationServerUnavailable);
      expect((error as Error).message).toMatch(/not asked again for 1 s/);
    }
    expect(requests).toBe(1);
    clock += BACKOFF_MS;
    await failure(metadata.get(issuer));
    expect(requests).toBe(2);
    // Two failures in a row: twice the wait.
    clock += BACKOFF_MS;
    await failure(metadata.get(issuer));
    expect(requests).toBe(2);
    clock += BACKOFF_MS;
    up = true;
    expect(await metadata.get(issuer)).toMatchObject({ issuer, jwks_uri: `${issuer}/jwks` });
    expect(requests).toBe(3);
    // Known now, for the life of the process.
    await metadata.get(issuer);
    expect(requests).toBe(3);
  });
});
