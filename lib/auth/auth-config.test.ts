// Pins the resource server's configuration: off by default, the canonical URI, the issuers, the
// scopes, and refusals that name the variable.
import { randomBytes } from 'node:crypto';
import { ConfigError, parseConfig } from '../config';
import { canonicalResource, sseResourceOf } from './auth-config';

const minimal = {
  DATABASE_URL: 'postgres://mcp:mcp@127.0.0.1:5432/mcp',
  REQUEST_STATE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  PAYLOAD_CODEC_KEYS: `p1:${randomBytes(32).toString('base64')}`,
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
      tokenTypes: ['at+jwt'],
      clockToleranceS: 30,
      groupsClaim: 'groups',
      jwks: { cacheMaxAgeMs: 600_000, cooldownMs: 30_000 },
      requestTimeoutMs: 5000,
      allowHttp: false,
      answerApi: { resource: 'https://mcp.example.com/answers/api', requiredScopes: [] },
      serviceClaims: [],
    });
  });

  it('gives the answer API a resource of its own, never /mcp’s', () => {
    expect(parseConfig({ ...oauth, ANSWER_API_RESOURCE_URL: 'https://answers.example.com/api/' }).auth).toMatchObject({
      answerApi: { resource: 'https://answers.example.com/api' },
    });
    expect(refusal({ ...oauth, ANSWER_API_RESOURCE_URL: 'https://mcp.example.com/mcp' })).toMatch(
      /ANSWER_API_RESOURCE_URL must differ from MCP_RESOURCE_URL/,
    );
    expect(parseConfig({ ...oauth, MCP_RESOURCE_URL: 'https://mcp.example.com' }).auth).toMatchObject({
      answerApi: { resource: 'https://mcp.example.com/answers/api' },
    });
  });

  it('reads the claims that mark a service’s own token', () => {
    expect(parseConfig({ ...oauth, OAUTH_SERVICE_CLAIMS: 'idtyp=app,client_id' }).auth).toMatchObject({
      serviceClaims: [{ claim: 'idtyp', value: 'app' }, { claim: 'client_id' }],
    });
    expect(refusal({ ...oauth, OAUTH_SERVICE_CLAIMS: '=app' })).toMatch(/OAUTH_SERVICE_CLAIMS: "=app" names no claim/);
  });

  it('refuses an OAUTH_JWKS_URI that is not https off loopback, unless http is allowed', () => {
    expect(refusal({ ...oauth, OAUTH_JWKS_URI: 'http://keys.example.com/jwks' })).toMatch(
      /OAUTH_JWKS_URI must be https/,
    );
    expect(
      parseConfig({ ...oauth, OAUTH_JWKS_URI: 'http://keys.example.com/jwks', OAUTH_ALLOW_HTTP_ISSUERS: 'true' }).auth,
    ).toMatchObject({ jwksUri: 'http://keys.example.com/jwks', allowHttp: true });
    expect(parseConfig({ ...oauth, OAUTH_JWKS_URI: 'http://127.0.0.1:9/jwks' }).auth).toMatchObject({
      jwksUri: 'http://127.0.0.1:9/jwks',
    });
  });

  it('reads the accepted token types as RFC 7515 compares them, and refuses an empty list', () => {
    const auth = parseConfig({ ...oauth, OAUTH_TOKEN_TYPES: 'application/AT+JWT, JWT,none' }).auth;
    expect(auth.mode === 'oauth' && auth.tokenTypes).toEqual(['at+jwt', 'jwt', 'none']);
    expect(refusal({ ...oauth, OAUTH_TOKEN_TYPES: ' , ' })).toMatch(/OAUTH_TOKEN_TYPES/);
  });

  it('reads scopes, issuers, the key set and introspection', () => {
    const auth = parseConfig({
      ...oauth,
      OAUTH_ISSUERS: 'https://a.example.com, https://b.example.com/realms/x',
      OAUTH_REQUIRED_SCOPES: 'mcp files:read',
      OAUTH_SCOPES_SUPPORTED: 'mcp,files:read,files:write',
      OAUTH_JWKS_CACHE_MAX_AGE_MS: '60000',
      OAUTH_JWKS_COOLDOWN_MS: '1000',
      OAUTH_INTROSPECTION_CLIENT_ID: 'mcp-server',
      OAUTH_INTROSPECTION_CLIENT_SECRET: 's3cret',
      OAUTH_INTROSPECTION_CACHE_MS: '1000',
    }).auth;
    expect(auth).toMatchObject({
      issuers: ['https://a.example.com', 'https://b.example.com/realms/x'],
      requiredScopes: ['mcp', 'files:read'],
      scopesSupported: ['mcp', 'files:read', 'files:write'],
      jwks: { cacheMaxAgeMs: 60_000, cooldownMs: 1000 },
      introspection: { clientId: 'mcp-server', clientSecret: 's3cret', cacheMs: 1000 },
    });
  });

  it('advertises the required scopes when no others are given', () => {
    expect(parseConfig({ ...oauth, OAUTH_REQUIRED_SCOPES: 'mcp' }).auth).toMatchObject({ scopesSupported: ['mcp'] });
  });

  // Each variable with values it refuses, and what the message says of it (its name unless told).
  const refused: Array<[string, string[], string?]> = [
    ['MCP_RESOURCE_URL', ['', 'mcp.example.com', 'ftp://mcp.example.com/mcp', 'https://mcp.example.com/mcp?t=1']],
    ['OAUTH_ISSUERS', ['', 'http://auth.example.com', 'https://auth.example.com#x', 'not a url']],
    ['OAUTH_ALGORITHMS', ['none', 'HS256', '']],
    ['OAUTH_REQUIRED_SCOPES', ['mcp "quoted"']],
    ['OAUTH_INTROSPECTION_CLIENT_ID', ['mcp-server'], 'go together'],
    ['OAUTH_ALLOW_HTTP_ISSUERS', ['yes']],
    ['AUTH_MODE', ['jwt']],
  ];
  it.each(refused)('refuses a bad %s, naming it', (variable, values, named = variable) => {
    for (const value of values) expect(refusal({ ...oauth, [variable]: value })).toContain(named);
  });

  it('refuses a JWKS URI for more than one issuer', () => {
    const twoIssuers = { OAUTH_ISSUERS: 'https://a.example.com,https://b.example.com' };
    expect(refusal({ ...oauth, ...twoIssuers, OAUTH_JWKS_URI: 'https://a.example.com/jwks' })).toContain('one issuer');
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
