/**
 * GET (and HEAD) of this server's Protected Resource Metadata documents (RFC 9728), at every
 * well-known path lib/auth/protected-resource.ts names, open to any origin (CORS `*`: the documents
 * are public, and browser-based clients read them before they hold a token). Mounted only with
 * AUTH_MODE=oauth; without it these paths are 404, as for a server that is not protected.
 */
import { Router } from 'express';
import type { OAuthConfig } from '../../../../lib/auth/auth-config';
import { protectedResources } from '../../../../lib/auth/protected-resource';

const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

export function metadataRoutes(auth: OAuthConfig): Router {
  const router = Router();
  for (const [path, document] of protectedResources(auth).byPath) {
    router.options(path, (req, res) => {
      res.set({ 'access-control-allow-origin': '*', 'access-control-allow-methods': ALLOWED_METHODS });
      const requested = req.get('access-control-request-headers');
      if (requested) res.set({ 'access-control-allow-headers': requested, vary: 'Access-Control-Request-Headers' });
      res.status(204).end();
    });
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
