// Pins the Protected Resource Metadata documents (RFC 9728): what they say and where they are.
import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/server';
import { parseConfig } from '../config';
import type { OAuthConfig } from './auth-config';
import { METADATA_ROOT_PATH, protectedResources, rootRefusal } from './protected-resource';

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

  /** RFC 9728 §3.3: the `resource` a client finds at a well-known URL is the resource that URL was made from. */
  function expectEachDocumentAtItsOwnUrl(served: ReturnType<typeof protectedResources>) {
    for (const [path, document] of served.byPath) {
      const wellKnown = new URL(path, document.resource).href;
      expect(getOAuthProtectedResourceMetadataUrl(new URL(document.resource))).toBe(wellKnown);
    }
  }

  it("serves each document at its own resource's path-suffixed well-known path, and the root not at all", () => {
    expect([...resources.byPath.keys()].sort()).toEqual([
      '/.well-known/oauth-protected-resource/answers/api',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource/sse',
    ]);
    // The root well-known URL is the origin's: the /mcp document there would name another resource.
    expect(resources.byPath.has(METADATA_ROOT_PATH)).toBe(false);
    expectEachDocumentAtItsOwnUrl(resources);
    expect(rootRefusal(resources).error_description).toContain(resources.mcp.metadataUrl);
  });

  it('gives a resource under a path prefix its own well-known paths, and serves no document for /mcp', () => {
    const prefixed = protectedResources(configFor('https://mcp.example.com/tenant/mcp'));
    expect(prefixed.mcp.metadataUrl).toBe('https://mcp.example.com/.well-known/oauth-protected-resource/tenant/mcp');
    expect([...prefixed.byPath.keys()].sort()).toEqual([
      '/.well-known/oauth-protected-resource/tenant/answers/api',
      '/.well-known/oauth-protected-resource/tenant/mcp',
      '/.well-known/oauth-protected-resource/tenant/sse',
    ]);
    expectEachDocumentAtItsOwnUrl(prefixed);
  });

  it('uses one document for both transports when the resource is the origin, served at the root', () => {
    const origin = protectedResources(configFor('https://mcp.example.com'));
    expect(origin.sse).toBe(origin.mcp);
    expect(origin.mcp.metadataUrl).toBe('https://mcp.example.com/.well-known/oauth-protected-resource');
    expect(origin.mcp.document.resource).toBe('https://mcp.example.com');
    expect(origin.mcp.document.scopes_supported).toBeUndefined();
    // The answer API is a resource of its own, even when /mcp is the origin's.
    expect([...origin.byPath.keys()]).toEqual([
      METADATA_ROOT_PATH,
      '/.well-known/oauth-protected-resource/answers/api',
    ]);
    expect(origin.answers.document.resource).toBe('https://mcp.example.com/answers/api');
    expectEachDocumentAtItsOwnUrl(origin);
  });
});
