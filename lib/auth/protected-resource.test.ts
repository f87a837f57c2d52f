// Pins the Protected Resource Metadata documents (RFC 9728): what they say and where they are.
import { parseConfig } from '../config';
import type { OAuthConfig } from './auth-config';
import { protectedResources } from './protected-resource';

const configFor = (resource: string, extra: Record<string, string> = {}) =>
  parseConfig({
    DATABASE_URL: 'postgres://x',
    REQUEST_STATE_KEYS: `k:${Buffer.alloc(32).toString('base64')}`,
    PAYLOAD_CODEC_KEYS: `p:${Buffer.alloc(32).toString('base64')}`,
    AUTH_MODE: 'oauth',
    MCP_RESOURCE_URL: resource,
    OAUTH_ISSUERS: 'https://a.example.com,https://b.example.com',
    ...extra,
  }).auth as OAuthConfig;

describe('protectedResources', () => {
  const resources = protectedResources(configFor('https://mcp.example.com/mcp', { OAUTH_REQUIRED_SCOPES: 'mcp' }));

  it('describes /mcp by its canonical URI and every trusted authorization server', () => {
    expect(resources.mcp.document).toEqual({
      resource: 'https://mcp.example.com/mcp',
      authorization_servers: ['https://a.example.com', 'https://b.example.com'],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
    });
    expect(resources.mcp.metadataUrl).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/mcp');
    expect(resources.mcp.resources).toEqual(['https://mcp.example.com/mcp']);
  });

  it('describes the 2024-11-05 transport by the resource its clients derive from /sse', () => {
    expect(resources.sse.document.resource).toBe('https://mcp.example.com/sse');
    expect(resources.sse.metadataUrl).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/sse');
    expect(resources.sse.resources).toEqual(['https://mcp.example.com/sse', 'https://mcp.example.com/mcp']);
  });

  it('serves the /mcp document at the root and path-suffixed well-known paths', () => {
    expect([...resources.byPath.keys()].sort()).toEqual([
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource/sse',
    ]);
    expect(resources.byPath.get('/.well-known/oauth-protected-resource')).toBe(resources.mcp.document);
  });

  it('gives a resource under a path prefix its own well-known path, and still serves /mcp', () => {
    const prefixed = protectedResources(configFor('https://mcp.example.com/tenant/mcp'));
    expect(prefixed.mcp.metadataUrl).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/tenant/mcp');
    expect(prefixed.byPath.has('/.well-known/oauth-protected-resource/tenant/mcp')).toBe(true);
    expect(prefixed.byPath.has('/.well-known/oauth-protected-resource/tenant/sse')).toBe(true);
    expect(prefixed.byPath.has('/.well-known/oauth-protected-resource/mcp')).toBe(true);
  });

  it('uses one document for both transports when the resource is the origin', () => {
    const origin = protectedResources(configFor('https://mcp.example.com'));
    expect(origin.sse).toBe(origin.mcp);
    expect(origin.mcp.metadataUrl).toBe('https://mcp.example.com/.well-known/oauth-protected-resource');
    expect(origin.mcp.document.resource).toBe('https://mcp.example.com');
    expect(origin.mcp.document.scopes_supported).toBeUndefined();
  });
});
