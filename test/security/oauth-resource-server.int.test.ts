/**
 * The service as an OAuth 2.1 resource server (MCP 2026-07-28 authorization), against a real
 * authorization server (oidc-provider, test/support/authorization-server.ts) issuing real tokens by
 * the client-credentials grant: the protected resource metadata it serves, the 401 challenge a
 * request without a token gets on every route of both eras, the tokens it refuses and how (wrong
 * audience, expired, unsigned, signed by another key, from another issuer, short of scopes, in the
 * URL), opaque tokens by introspection, the official 2.x client completing an exchange with its
 * own OAuth support, a signing key rotated under it, and 503 (not 401) while the authorization
 * server is down.
 */
import { ClientCredentialsProvider } from '@modelcontextprotocol/client';
import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/server';
import { SignJWT, UnsecuredJWT, importJWK } from 'jose';
import { rawCall } from '../../scripts/raw-mcp-call';
import { newSigningKey } from '../support/authorization-server';
import { connectModernClient } from '../support/modern-client';
import { CLIENTS, ELSEWHERE, JWKS_COOLDOWN_MS, startOAuthStack, type OAuthStack } from '../support/oauth-stack';
import { accept } from '../support/raw-mcp';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let stack: OAuthStack;
let metadataUrl: string;
let base: string;

beforeAll(async () => {
  stack = await startOAuthStack();
  base = stack.service.url.replace(/\/mcp$/, '');
  metadataUrl = `${base}/.well-known/oauth-protected-resource/mcp`;
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

/** A `tools/list` leg with this Authorization header (none when undefined). */
const listTools = (authorization?: string) =>
  rawCall(stack.service.url, 'tools/list', {}, {}, { headers: authorization ? { authorization } : {} });

/** Status, challenge and body of a refused request. */
async function refusalOf(authorization: string) {
  const response = await fetch(stack.service.url, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    body: (await response.json()) as { error: string; error_description?: string },
  };
}

/**
 * A JWT signed with `key` (the server's or another), with good claims unless `claims` says
 * otherwise, and the access token's `typ` unless `typ` says otherwise (null: none).
 */
async function signedToken(
  key: Awaited<ReturnType<typeof newSigningKey>>,
  claims: Record<string, unknown> = {},
  typ: string | null = 'at+jwt',
) {
  return new SignJWT({ client_id: 'alice', scope: 'mcp', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, ...(typ !== null ? { typ } : {}) })
    .setIssuer((claims.iss as string | undefined) ?? stack.as.issuer)
    .setAudience(stack.resource)
    .setSubject('alice')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(await importJWK(key, 'RS256'));
}

describe('protected resource metadata (RFC 9728)', () => {
  it('names this resource and the authorization server at its path-suffixed well-known URL, to any origin', async () => {
    const response = await fetch(metadataUrl, { headers: { origin: 'https://app.example.com' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({
      resource: stack.resource,
      authorization_servers: [stack.as.issuer],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
    });
  });

  it('describes the 2024-11-05 transport by the resource its clients derive from /sse', async () => {
    const response = await fetch(`${base}/.well-known/oauth-protected-resource/sse`);
    expect(await response.json()).toMatchObject({
      resource: stack.sseResource,
      authorization_servers: [stack.as.issuer],
    });
  });

  it('serves no document for the origin, which is not the resource: the root well-known URL is 404 (RFC 9728 §3.3)', async () => {
    // A client that read /mcp's document here would take it for the origin's, whose resource it is not.
    const root = await fetch(`${base}/.well-known/oauth-protected-resource`, {
      headers: { origin: 'https://app.example.com' },
    });
    expect(root.status).toBe(404);
    expect(root.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await root.json()) as Record<string, string>;
    expect(body).not.toHaveProperty('resource');
    expect(body).toMatchObject({ error: 'not_found' });
    expect(body.error_description).toContain(metadataUrl);
    // Nor at a path that differs from the resource's in letter case: another resource's URL.
    expect((await fetch(`${base}/.well-known/oauth-protected-resource/MCP`)).status).toBe(404);
  });

  it('names, at every well-known URL it answers, the resource that URL is made from', async () => {
    for (const resource of [stack.resource, stack.sseResource]) {
      const wellKnown = getOAuthProtectedResourceMetadataUrl(new URL(resource));
      const response = await fetch(wellKnown);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { resource: string }).resource).toBe(resource);
    }
  });

  it('answers HEAD and a CORS preflight, and refuses other methods', async () => {
    const head = await fetch(metadataUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toContain('application/json');
    const preflight = await fetch(metadataUrl, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-headers': 'mcp-protocol-version' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('mcp-protocol-version');
    const post = await fetch(metadataUrl, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});

describe('a request without a token', () => {
  it.each([
    ['POST', '/mcp', 'mcp'],
    ['GET', '/mcp', 'mcp'],
    ['DELETE', '/mcp', 'mcp'],
    ['GET', '/sse', 'sse'],
    ['POST', '/messages?sessionId=x', 'sse'],
  ])('%s %s gets 401 with WWW-Authenticate: Bearer resource_metadata and the scope', async (method, path, doc) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize' }) } : {}),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/${doc}", scope="mcp"`,
    );
    expect(await response.json()).toMatchObject({ error: 'unauthorized' });
  });
});

describe('tokens', () => {
  it('accepts a token the authorization server issued for this resource with the scope', async () => {
    const reply = await listTools(await stack.bearer('alice'));
    expect(reply.status).toBe(200);
    expect(reply.body.result?.tools).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'greet' })]));
  });

  it.each([
    ['issued for another resource', () => stack.bearer('alice', { resource: ELSEWHERE })],
    ['issued for no resource (no audience)', () => stack.bearer('alice', { resource: undefined })],
    ['unsigned (alg none)', async () => `Bearer ${unsignedToken()}`],
    [
      'signed by another key under the server key id',
      async () => `Bearer ${await signedToken(await newSigningKey('k1'))}`,
    ],
    ['from an issuer this server does not trust', async () => signedBy('https://evil.example.com')],
    // Signed by the trusted issuer's own key, audience and all, but not an access token (RFC 9068 §4).
    ['of typ JWT, as an ID token is', async () => `Bearer ${await signedToken(stack.as.keys[0]!, {}, 'JWT')}`],
    ['with no typ', async () => `Bearer ${await signedToken(stack.as.keys[0]!, {}, null)}`],
    ['not a token any server issued (opaque, inactive)', async () => 'Bearer not-a-token-anyone-issued'],
    ['of another scheme', async () => `Basic ${Buffer.from('alice:x').toString('base64')}`],
  ])('refuses a token %s: 401 invalid_token with the challenge', async (_what, authorization) => {
    const refusal = await refusalOf(await authorization());
    expect(refusal.status).toBe(401);
    expect(refusal.challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"]+", scope="mcp", /);
    expect(refusal.challenge).toContain(`resource_metadata="${metadataUrl}"`);
    expect(refusal.body.error).toBe('invalid_token');
  });

  it("holds /mcp in any letter case to /mcp's audience: a token for /sse is refused on POST /MCP", async () => {
    const upperCase = stack.service.url.replace(/\/mcp$/, '/MCP');
    const sseToken = await stack.bearer('alice', { resource: stack.sseResource });
    const call = (authorization: string) => rawCall(upperCase, 'tools/list', {}, {}, { headers: { authorization } });
    const refused = await call(sseToken);
    expect(refused.status).toBe(401);
    expect(refused.headers?.get('www-authenticate')).toContain(`resource_metadata="${metadataUrl}"`);
    expect((await call(await stack.bearer('alice'))).status).toBe(200);
  });

  it("accepts the issuer's token with typ application/at+jwt (RFC 7515 comparison)", async () => {
    const reply = await listTools(`Bearer ${await signedToken(stack.as.keys[0]!, {}, 'application/AT+JWT')}`);
    expect(reply.status).toBe(200);
  });

  it('refuses an expired token: 401, saying it expired', async () => {
    const authorization = await stack.bearer('brief');
    expect((await listTools(authorization)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const refusal = await refusalOf(authorization);
    expect(refusal.status).toBe(401);
    expect(refusal.body).toEqual({ error: 'invalid_token', error_description: 'The access token has expired' });
  });

  it('refuses a token short of the required scope: 403 insufficient_scope naming it', async () => {
    const refusal = await refusalOf(await stack.bearer('alice', { scope: 'files:read' }));
    expect(refusal.status).toBe(403);
    expect(refusal.challenge).toBe(
      `Bearer error="insufficient_scope", error_description="Insufficient scope", scope="mcp", resource_metadata="${metadataUrl}"`,
    );
  });

  it('refuses a token sent in the URL: 400, even a good one', async () => {
    const token = (await stack.bearer('alice')).slice('Bearer '.length);
    const response = await fetch(`${stack.service.url}?access_token=${token}`, { method: 'POST' });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('accepts an opaque token the authorization server vouches for (RFC 7662 introspection)', async () => {
    const authorization = await stack.bearer('olga');
    expect(authorization.split('.')).toHaveLength(1);
    expect((await listTools(authorization)).status).toBe(200);
    // Once introspected, the answer is reused: the same token again does not ask again (still 200).
    expect((await listTools(authorization)).status).toBe(200);
  });
});

const unsignedToken = () =>
  new UnsecuredJWT({ client_id: 'alice', scope: 'mcp' })
    .setIssuer(stack.as.issuer)
    .setAudience(stack.resource)
    .setSubject('alice')
    .setIssuedAt()
    .setExpirationTime('5m')
    .encode();

/** A token with the server's own key but naming another issuer. */
const signedBy = async (iss: string) => `Bearer ${await signedToken(stack.as.keys[0]!, { iss })}`;

describe('the official 2.x client with its OAuth support', () => {
  it('finds the authorization server from the 401, gets a token by client credentials and completes an exchange', async () => {
    const provider = new ClientCredentialsProvider({
      clientId: CLIENTS.alice.client_id,
      clientSecret: CLIENTS.alice.client_secret,
      expectedIssuer: stack.as.issuer,
    });
    const client = await connectModernClient(stack.service.url, () => accept({ name: 'Ada' }), {
      authProvider: provider,
    });
    try {
      const result = await client.callTool({ name: 'greet', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      expect(provider.tokens()?.access_token).toBeDefined();
    } finally {
      await client.close();
    }
  });
});

describe('a resource that is the origin itself (MCP_RESOURCE_URL without a path)', () => {
  let origin: OAuthStack;
  beforeAll(async () => {
    origin = await startOAuthStack({}, { resourcePath: '' });
  }, 120_000);
  afterAll(async () => {
    await origin?.close();
  });

  it('serves its one document at the root well-known URL, naming the origin, and none at /mcp', async () => {
    const originBase = origin.service.url.replace(/\/mcp$/, '');
    expect(origin.resource).toBe(originBase);
    const root = await fetch(`${originBase}/.well-known/oauth-protected-resource`);
    expect(root.status).toBe(200);
    expect(await root.json()).toMatchObject({ resource: originBase, authorization_servers: [origin.as.issuer] });
    expect((await fetch(`${originBase}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
    const challenge = (await fetch(origin.service.url, { method: 'POST' })).headers.get('www-authenticate');
    expect(challenge).toContain(`resource_metadata="${originBase}/.well-known/oauth-protected-resource"`);
  });

  it("lets the official 2.x client find it from the 401 and complete an exchange with the origin's token", async () => {
    const provider = new ClientCredentialsProvider({
      clientId: CLIENTS.bob.client_id,
      clientSecret: CLIENTS.bob.client_secret,
      expectedIssuer: origin.as.issuer,
    });
    const client = await connectModernClient(origin.service.url, () => accept({ name: 'Bo' }), {
      authProvider: provider,
    });
    try {
      const result = await client.callTool({ name: 'greet', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Bo!' }]);
    } finally {
      await client.close();
    }
  });
});

describe('key rotation and outages', () => {
  it('accepts tokens signed with a key the issuer rotated to, without a restart', async () => {
    expect((await listTools(await stack.bearer('alice'))).status).toBe(200);
    const rotated = await newSigningKey('k2');
    await stack.as.restart([rotated, ...stack.as.keys]);
    const authorization = await stack.bearer('alice');
    expect(JSON.parse(Buffer.from(authorization.split('.')[0]!.slice(7), 'base64url').toString()).kid).toBe('k2');
    // A key id the cache lacks fetches the key set again, once the cooldown since the last fetch has passed.
    await sleep(JWKS_COOLDOWN_MS);
    expect((await listTools(authorization)).status).toBe(200);
  });

  it('answers 503 with Retry-After, not 401, while the authorization server cannot be reached', async () => {
    const opaque = await stack.bearer('olga', { scope: 'mcp' });
    const stranger = await newSigningKey('k9');
    await stack.as.stop();
    await sleep(JWKS_COOLDOWN_MS);
    // A key id this server has not seen makes it fetch the key set again, from a server that is down;
    // the tokens after it are answered the same at once, within the fetch's back-off.
    const forged = await Promise.all(Array.from({ length: 3 }, () => signedToken(stranger)));
    for (const authorization of [...forged.map((token) => `Bearer ${token}`), opaque]) {
      const response = await fetch(stack.service.url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(response.headers.get('www-authenticate')).toBeNull();
    }
  });
});
