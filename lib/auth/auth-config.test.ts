// Pins the resource server's configuration: off by default, the canonical URI, the issuers, the
// scopes, and refusals that name the variable.
import { randomBytes } from 'node:crypto';
import { ConfigError, parseConfig } from '../config';
import { canonicalResource, sseResourceOf } from './auth-config';

const minimal = {
  DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
  REQUEST_STATE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
};
const oauth = {
  ...minimal,
  AUTH_MODE: 'oauth',
  MCP_RESOURCE_URL: 'https://mcp.example.com/mcp',
  OAUTH_ISSUERS: 'https://auth.example.com',
};

const refusal = (env: Record<string, string>) => {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('accepted');
};

describe('auth configuration', () => {
  it('is off unless asked for', () => {
    expect(parseConfig(minimal).auth).toEqual({ mode: 'off' });
  });

  it('reads a complete OAuth setup with its documented defaults', () => {
    expect(parseConfig(oauth).auth).toEqual({
      mode: 'oauth',
      resource: 'https://mcp.example.com/mcp',
      sseResource: 'https://mcp.example.com/sse',
      issuers: ['https://auth.example.com'],
      requiredScopes: [],
      scopesSupported: [],
      algorithms: ['RS256', 'PS256', 'ES256', 'EdDSA'],
      clockToleranceS: 30,
      jwks: { cacheMaxAgeMs: 600_000, cooldownMs: 30_000 },
      requestTimeoutMs: 5000,
    });
  });

  it('reads scopes, issuers, the key set and introspection', () => {
    const auth = parseConfig({
      ...oauth,
      OAUTH_ISSUERS: 'https://a.example.com, https://b.example.com/realms/x',
      OAUTH_REQUIRED_SCOPES: 'mcp files:read',
      OAUTH_SCOPES_SUPPORTED: 'mcp,files:read,files:write',
      OAUTH_JWKS_CACHE_MAX_AGE_MS: '60000',
      OAUTH_JWKS_COOLDOWN_MS: '0',
      OAUTH_INTROSPECTION_CLIENT_ID: 'mcp-server',
      OAUTH_INTROSPECTION_CLIENT_SECRET: 's3cret',
      OAUTH_INTROSPECTION_CACHE_MS: '1000',
    }).auth;
    expect(auth).toMatchObject({
      issuers: ['https://a.example.com', 'https://b.example.com/realms/x'],
      requiredScopes: ['mcp', 'files:read'],
      scopesSupported: ['mcp', 'files:read', 'files:write'],
      jwks: { cacheMaxAgeMs: 60_000, cooldownMs: 0 },
      introspection: { clientId: 'mcp-server', clientSecret: 's3cret', cacheMs: 1000 },
    });
  });

  it('advertises the required scopes when no others are given', () => {
    expect(parseConfig({ ...oauth, OAUTH_REQUIRED_SCOPES: 'mcp' }).auth).toMatchObject({ scopesSupported: ['mcp'] });
  });

  it.each([
    [{ MCP_RESOURCE_URL: '' }, 'MCP_RESOURCE_URL is required'],
    [{ OAUTH_ISSUERS: '' }, 'OAUTH_ISSUERS is required'],
    [{ MCP_RESOURCE_URL: 'mcp.example.com' }, 'MCP_RESOURCE_URL'],
    [{ MCP_RESOURCE_URL: 'ftp://mcp.example.com/mcp' }, 'MCP_RESOURCE_URL'],
    [{ MCP_RESOURCE_URL: 'https://mcp.example.com/mcp?tenant=1' }, 'MCP_RESOURCE_URL'],
    [{ OAUTH_ISSUERS: 'http://auth.example.com' }, 'must be https'],
    [{ OAUTH_ISSUERS: 'https://auth.example.com#x' }, 'no query or fragment'],
    [
      { OAUTH_ISSUERS: 'https://a.example.com,https://b.example.com', OAUTH_JWKS_URI: 'https://a.example.com/jwks' },
      'one issuer',
    ],
    [{ OAUTH_ALGORITHMS: 'none' }, 'OAUTH_ALGORITHMS'],
    [{ OAUTH_ALGORITHMS: 'HS256' }, 'OAUTH_ALGORITHMS'],
    [{ OAUTH_REQUIRED_SCOPES: 'mcp "quoted"' }, 'OAUTH_REQUIRED_SCOPES'],
    [{ OAUTH_INTROSPECTION_CLIENT_ID: 'mcp-server' }, 'go together'],
    [{ OAUTH_ALLOW_HTTP_ISSUERS: 'yes' }, 'OAUTH_ALLOW_HTTP_ISSUERS'],
    [{ AUTH_MODE: 'jwt' }, 'AUTH_MODE'],
  ])('refuses %j, naming it', (override, named) => {
    expect(refusal({ ...oauth, ...override })).toContain(named);
  });

  it('trusts an http issuer on loopback, and elsewhere only when told to', () => {
    expect(parseConfig({ ...oauth, OAUTH_ISSUERS: 'http://127.0.0.1:9000' }).auth).toMatchObject({
      issuers: ['http://127.0.0.1:9000'],
    });
    expect(
      parseConfig({ ...oauth, OAUTH_ISSUERS: 'http://keycloak:8080/realms/mcp', OAUTH_ALLOW_HTTP_ISSUERS: 'true' })
        .auth,
    ).toMatchObject({ issuers: ['http://keycloak:8080/realms/mcp'] });
  });
});

describe('canonicalResource', () => {
  it.each([
    ['https://MCP.Example.com/mcp', 'https://mcp.example.com/mcp'],
    ['HTTPS://mcp.example.com/mcp/', 'https://mcp.example.com/mcp'],
    ['https://mcp.example.com/mcp#frag', 'https://mcp.example.com/mcp'],
    ['https://mcp.example.com', 'https://mcp.example.com'],
    ['https://mcp.example.com/', 'https://mcp.example.com'],
    ['https://mcp.example.com:8443/server/mcp', 'https://mcp.example.com:8443/server/mcp'],
  ])('writes %s as %s', (raw, canonical) => {
    expect(canonicalResource(raw)).toBe(canonical);
  });
});

describe('sseResourceOf', () => {
  it('puts /sse beside /mcp, and keeps a resource that covers both', () => {
    expect(sseResourceOf('https://mcp.example.com/mcp')).toBe('https://mcp.example.com/sse');
    expect(sseResourceOf('https://mcp.example.com/tenant/mcp')).toBe('https://mcp.example.com/tenant/sse');
    expect(sseResourceOf('https://mcp.example.com')).toBe('https://mcp.example.com');
  });
});
