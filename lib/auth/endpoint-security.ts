/**
 * Which authorization-server URLs this resource server will talk to: https, or http on loopback
 * (a local development server), or http anywhere only when OAUTH_ALLOW_HTTP_ISSUERS says so. The
 * one rule for issuers, the key set (OAUTH_JWKS_URI or the metadata's `jwks_uri`) and the
 * introspection endpoint, so keys and token answers never travel where anyone on the path could
 * swap them.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

export const isLoopbackUrl = (url: URL): boolean => LOOPBACK_HOSTS.has(url.hostname);

export function isSecureEndpoint(url: URL, allowHttp: boolean): boolean {
  return url.protocol === 'https:' || (url.protocol === 'http:' && (isLoopbackUrl(url) || allowHttp));
}
