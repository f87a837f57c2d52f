/**
 * This server's Protected Resource Metadata (RFC 9728), built from configuration alone: the
 * documents, the paths they are served at and the absolute URLs the 401 challenges point to.
 *
 * Each document is served at the well-known URL of the resource it names, and nowhere else: RFC
 * 9728 §3.1 inserts `/.well-known/oauth-protected-resource` between the resource's host and its
 * path, and §3.3 has a client refuse a document whose `resource` is not the one it asked for. So:
 *
 * - The MCP endpoint's document names the canonical URI (MCP_RESOURCE_URL) and every trusted
 *   authorization server (OAUTH_ISSUERS), at that URI's well-known URL
 *   (`/.well-known/oauth-protected-resource/mcp` for `https://host/mcp`,
 *   `/.well-known/oauth-protected-resource/tenant/mcp` for `https://host/tenant/mcp`).
 * - The 2024-11-05 transport's document names the resource its clients derive from their `/sse`
 *   URL (auth-config.ts `sseResourceOf`), at that resource's well-known URL; `/sse` and `/messages`
 *   point their challenges to it.
 * - The root well-known URL (`/.well-known/oauth-protected-resource`) is the document of the
 *   origin as a resource: served only when MCP_RESOURCE_URL is the origin itself (then it is the
 *   one document of both transports). Otherwise no document names the origin, and the root answers
 *   404 (`rootRefusal`), as RFC 9728 has it for a resource without metadata.
 *
 * A client finds its document by the 401's `resource_metadata`, else by the path-suffixed URL of
 * the URL it connects to, then by the root one (MCP authorization, "Protected Resource Metadata
 * Discovery"): the first two always lead to the document of the route it asked for.
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
  /**
   * `/answers/api`, a resource of its own (ANSWER_API_RESOURCE_URL): services ask for tokens for
   * it, so no token an MCP client holds for /mcp is one for it.
   */
  answers: ProtectedResource;
  /** Every well-known path this server answers, with its document: each the path of its own `resource`. */
  byPath: ReadonlyMap<string, OAuthProtectedResourceMetadata>;
}

/** What the root well-known URL answers when the origin is not the protected resource: 404, saying where to look. */
export function rootRefusal(resources: ProtectedResources) {
  return {
    error: 'not_found',
    error_description:
      `This server's protected resource is ${resources.mcp.document.resource}, not its origin: ` +
      `its metadata is at ${resources.mcp.metadataUrl}` +
      (resources.sse !== resources.mcp
        ? `, and the 2024-11-05 transport's (${resources.sse.document.resource}) at ${resources.sse.metadataUrl}`
        : ''),
  };
}

function documentFor(config: OAuthConfig, resource: string, scopes: string[]): OAuthProtectedResourceMetadata {
  return {
    resource,
    authorization_servers: [...config.issuers],
    ...(scopes.length > 0 ? { scopes_supported: [...scopes] } : {}),
    bearer_methods_supported: ['header'],
  };
}

export function protectedResources(config: OAuthConfig): ProtectedResources {
  const describe = (resource: string, accepted: string[], scopes = config.scopesSupported): ProtectedResource => ({
    resources: accepted,
    metadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(resource)),
    document: documentFor(config, resource, scopes),
  });
  const mcp = describe(config.resource, [config.resource]);
  const sse =
    config.sseResource === config.resource ? mcp : describe(config.sseResource, [config.sseResource, config.resource]);
  const { answerApi } = config;
  const answers = describe(answerApi.resource, [answerApi.resource], answerApi.requiredScopes);
  const byPath = new Map<string, OAuthProtectedResourceMetadata>(
    [mcp, sse, answers].map((described) => [new URL(described.metadataUrl).pathname, described.document]),
  );
  return { mcp, sse, answers, byPath };
}
