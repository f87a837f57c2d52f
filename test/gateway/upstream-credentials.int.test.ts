/**
 * The gateway's own credential at an upstream by the OAuth client-credentials grant: a real
 * authorization server (oidc-provider, test/support/authorization-server.ts) issues the gateway its
 * access token for the upstream's resource; every upstream request carries it (never the caller's);
 * an upstream that refuses it (401) gets a new one on the same call.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server';
import { connectModernClient } from '../support/modern-client';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import { useTestService } from '../support/test-service';

const GATEWAY = { client_id: 'gateway', client_secret: 'gateway-secret-of-32-characters!!', scope: 'shop' };
let upstream: SdkUpstream;
let as: AuthorizationServer;
let refuseNext = false;
const env: Record<string, string> = { HANDLERS: 'none', SHOP_CLIENT_SECRET: GATEWAY.client_secret };

beforeAll(async () => {
  upstream = await startSdkUpstream({
    // Once asked to, it refuses the token of the next call, as a server does with a revoked token.
    misbehave: (_call, res) => {
      if (!refuseNext) return false;
      refuseNext = false;
      res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' }).end();
      return true;
    },
  });
  as = await startAuthorizationServer({ clients: [GATEWAY], resources: { [upstream.url]: 'shop' } });
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'upstream-cc-')), 'upstreams.json');
  const auth = {
    kind: 'client-credentials',
    tokenUrl: as.tokenEndpoint,
    clientId: GATEWAY.client_id,
    clientSecretEnv: 'SHOP_CLIENT_SECRET',
    scope: 'shop',
    resource: upstream.url,
  };
  writeFileSync(file, JSON.stringify({ upstreams: [{ name: 'shop', url: upstream.url, auth }] }));
  env.UPSTREAMS_FILE = file;
}, 60_000);
afterAll(async () => {
  await upstream?.close();
  await as?.stop();
});
const service = useTestService(env);

async function verified(authorization: string | undefined) {
  const token = authorization?.replace(/^Bearer /, '') ?? '';
  const { payload } = await jwtVerify(token, createRemoteJWKSet(new URL(`${as.issuer}/jwks`)), {
    issuer: as.issuer,
    audience: upstream.url,
  });
  return payload;
}

describe("the gateway's client-credentials token at an upstream", () => {
  it('calls the upstream with an access token the authorization server issued the gateway for it', async () => {
    const client = await connectModernClient(service.url, {});
    const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
    expect((result as { content: Array<{ text: string }> }).content[0]!.text).toBe('2');
    const [call] = upstream.calls.filter((c) => c.name === 'add');
    expect(await verified(call!.authorization)).toMatchObject({ client_id: 'gateway', scope: 'shop' });
    await client.close();
  });

  it('gets a new token when the upstream refuses the one it holds, on the same call', async () => {
    const before = upstream.calls.length;
    refuseNext = true;
    const client = await connectModernClient(service.url, {});
    const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } });
    expect((result as { content: Array<{ text: string }> }).content[0]!.text).toBe('4');
    const [refused, accepted] = upstream.calls.slice(before).filter((c) => c.name === 'add');
    expect(refused!.authorization).not.toBe(accepted!.authorization);
    await verified(accepted!.authorization);
    await client.close();
  });
});
