/**
 * GET (and HEAD) `/.well-known/durable-mcp/evidence-jwks.json`: the public keys of the evidence log
 * (EVIDENCE_SIGNING_KEYS, every key of the ring, the signer first) as a JWKS (RFC 7517), which is
 * all a third party needs to verify an export. Public, open to any origin, no token: it names
 * public keys only.
 */
import { Router } from 'express';
import { EVIDENCE_JWKS_PATH } from '../../../../lib/evidence/evidence-export';
import { evidenceJwksOf, type EvidenceSigningKey } from '../../../../lib/evidence/signing-keys';

export function evidenceJwksRoute(keys: ReadonlyArray<EvidenceSigningKey>): Router {
  const router = Router({ caseSensitive: true });
  const jwks = evidenceJwksOf(keys);
  router.get(EVIDENCE_JWKS_PATH, (_req, res) => {
    res
      .set({ 'access-control-allow-origin': '*', 'cache-control': 'public, max-age=300' })
      .type('application/jwk-set+json')
      .send(JSON.stringify(jwks));
  });
  router.all(EVIDENCE_JWKS_PATH, (_req, res) => {
    res.set({ allow: 'GET, HEAD' }).status(405).json({ error: 'method_not_allowed' });
  });
  return router;
}
