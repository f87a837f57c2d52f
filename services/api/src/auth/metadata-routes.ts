/**
 * GET (and HEAD) of this server's Protected Resource Metadata documents (RFC 9728), each at the
 * well-known path of the resource it names (lib/auth/protected-resource.ts), open to any origin
 * (CORS `*`: the documents are public, and browser-based clients read them before they hold a
 * token). Paths are matched with their letter case, as resource URLs compare. The root well-known
 * path, when the origin is not the protected resource, answers 404 saying where the documents are.
 * Mounted only with AUTH_MODE=oauth; without it these paths are 404, as for a server that is not
 * protected.
 */
import { Router, type RequestHandler } from 'express';
import type { OAuthConfig } from '../../../../lib/auth/auth-config';
import { METADATA_ROOT_PATH, protectedResources, rootRefusal } from '../../../../lib/auth/protected-resource';

const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

const preflight: RequestHandler = (req, res) => {
  res.set({ 'access-control-allow-origin': '*', 'access-control-allow-methods': ALLOWED_METHODS });
  const requested = req.get('access-control-request-headers');
  if (requested) res.set({ 'access-control-allow-headers': requested, vary: 'Access-Control-Request-Headers' });
  res.status(204).end();
};

export function metadataRoutes(auth: OAuthConfig): Router {
  const router = Router({ caseSensitive: true });
  const resources = protectedResources(auth);
  if (!resources.byPath.has(METADATA_ROOT_PATH)) {
    const refusal = rootRefusal(resources);
    router.options(METADATA_ROOT_PATH, preflight);
    router.all(METADATA_ROOT_PATH, (_req, res) => {
      res.set({ 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=300' }).status(404).json(refusal);
    });
  }
  for (const [path, document] of resources.byPath) {
    router.options(path, preflight);
    // Express answers HEAD with the GET route's headers and no body.
    router.get(path, (_req, res) => {
      res.set({ 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=300' }).json(document);
    });
    router.all(path, (_req, res) => {
      res.set({ allow: ALLOWED_METHODS, 'access-control-allow-origin': '*' }).status(405).json({
        error: 'method_not_allowed',
        error_description: 'The metadata is read with GET',
      });
    });
  }
  return router;
}
