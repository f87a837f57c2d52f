import { accessTokens, authorizedFetch, UpstreamTokenRefused } from './upstream-credentials';

const grant = { tokenUrl: 'http://as/token', clientId: 'gateway', clientSecret: 's3cret', scope: 'tools' };

function tokenEndpoint(lifetimes: number[]) {
  const requests: Array<{ authorization: string | null; body: string }> = [];
  const fetchImpl = async (_url: string | URL, init?: RequestInit) => {
    requests.push({ authorization: new Headers(init?.headers).get('authorization'), body: String(init?.body) });
    const n = requests.length;
    return Response.json({ access_token: `t${n}`, token_type: 'Bearer', expires_in: lifetimes[n - 1] });
  };
  return { requests, fetchImpl };
}

describe("the gateway's credential at an upstream", () => {
  it('sends a static token as it is, and none when there is none', async () => {
    expect(await accessTokens({ authorization: 'Bearer fixed' }).header()).toBe('Bearer fixed');
    expect(await accessTokens({}).header()).toBeUndefined();
  });

  it('gets a token by the client-credentials grant and keeps it until shortly before it expires', async () => {
    let clock = 0;
    const { requests, fetchImpl } = tokenEndpoint([3600, 3600]);
    const tokens = accessTokens({ clientCredentials: grant }, fetchImpl, () => clock);
    expect(await tokens.header()).toBe('Bearer t1');
    expect(requests[0]!.authorization).toBe(`Basic ${Buffer.from('gateway:s3cret').toString('base64')}`);
    expect(requests[0]!.body).toBe('grant_type=client_credentials&scope=tools');
    clock = 3_569_000;
    expect(await tokens.header()).toBe('Bearer t1');
    clock = 3_570_000;
    expect(await tokens.header()).toBe('Bearer t2');
  });

  it('gets another token after the upstream answers 401, and tries once more', async () => {
    const { fetchImpl } = tokenEndpoint([3600, 3600]);
    const tokens = accessTokens({ clientCredentials: grant }, fetchImpl);
    const seen: Array<string | null> = [];
    const upstream = async (_url: string | URL, init?: RequestInit) => {
      seen.push(new Headers(init?.headers).get('authorization'));
      return new Response('{}', { status: seen.length === 1 ? 401 : 200 });
    };
    const response = await authorizedFetch(tokens, upstream)('http://u/mcp', { method: 'POST' });
    expect(response.status).toBe(200);
    expect(seen).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('says what the token endpoint answered when it refuses', async () => {
    const refusing = async () => Response.json({ error: 'invalid_client' }, { status: 401 });
    const tokens = accessTokens({ clientCredentials: grant }, refusing);
    await expect(tokens.header()).rejects.toThrow(UpstreamTokenRefused);
    await expect(tokens.header()).rejects.toThrow(
      'its token endpoint answered HTTP 401 without an access token: {"error":"invalid_client"}',
    );
  });
});
