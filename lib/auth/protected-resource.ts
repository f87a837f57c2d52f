/**
 * This server's Protected Resource Metadata (RFC 9728), built from configuration alone: the
 * documents, the paths they are served at and the absolute URLs the 401 challenges point to.
 *
 * - The MCP endpoint's document names the canonical URI (MCP_RESOURCE_URL) and every trusted
 *   authorization server (OAUTH_ISSUERS); it is served at its path-suffixed well-known URL
 *   (`/.well-known/oauth-protected-resource/mcp` for `…/mcp`), at the root well-known URL, and
 *   always at `/.well-known/oauth-protected-resource/mcp`, so every discovery order a client may
 *   follow finds it.
 * - The 2024-11-05 transport's document names the resource its clients derive from their `/sse`
 *   URL (auth-config.ts `sseResourceOf`), at that resource's well-known URL; `/sse` and `/messages`
 *   point their challenges to it.
 */
import {
  getOAuthProtectedResourceMetadataUrl,
  type OAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/server';
import type { OAuthConfig } from './auth-config';

export const METADATA_ROOT_PATH = '/.well-known/oauth-protected-resource';

export interface ProtectedResource {
  /** The resource URI tokens for this route must carry as their audience (the canonical one first). */
  resources: string[];
  /** The absolute URL of its metadata, for `resource_metadata=`. */
  metadataUrl: string;
  document: OAuthProtectedResourceMetadata;
}

export interface ProtectedResources {
  /** `/mcp`. */
  mcp: ProtectedResource;
  /** `/sse` and `/messages` (the 2024-11-05 HTTP+SSE transport). */
  sse: ProtectedResource;
  /** Every well-known path this server answers, with its document. */
  byPath: ReadonlyMap<string, OAuthProtectedResourceMetadata>;
}

function documentFor(config: OAuthConfig, resource: string): OAuthProtectedResourceMetadata {
  return {
    resource,
    authorization_servers: [...config.issuers],
    ...(config.scopesSupported.length > 0 ? { scopes_supported: [...config.scopesSupported] } : {}),
    bearer_methods_supported: ['header'],
  };
}

export function protectedResources(config: OAuthConfig): ProtectedResources {
  const describe = (resource: string, accepted: string[]): ProtectedResource => ({
    resources: accepted,
    metadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(resource)),
    document: documentFor(config, resource),
  });
  const mcp = describe(config.resource, [config.resource]);
  const sse =
    config.sseResource === config.resource ? mcp : describe(config.sseResource, [config.sseResource, config.resource]);
  const byPath = new Map<string, OAuthProtectedResourceMetadata>([
    [METADATA_ROOT_PATH, mcp.document],
    [`${METADATA_ROOT_PATH}/mcp`, mcp.document],
    [new URL(sse.metadataUrl).pathname, sse.document],
    [new URL(mcp.metadataUrl).pathname, mcp.document],
  ]);
  return { mcp, sse, byPath };
}
