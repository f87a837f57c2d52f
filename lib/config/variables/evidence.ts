/** The evidence log: the key ring its entries are signed with (docs/security.md "Evidence"). */
import { documented } from './documented';
import { keyRing, unsetWhenEmpty } from './value-kinds';

/** Evidence of decisions */
export const EVIDENCE_VARIABLES = {
  EVIDENCE_SIGNING_KEYS: documented(
    unsetWhenEmpty(keyRing()),
    "`kid:base64key,...`, 32-byte Ed25519 private keys (`openssl rand -base64 32`) that sign the [evidence log](security.md#evidence-a-signed-hash-linked-log-of-every-decision): the first signs new entries, every key's public half is published at `/.well-known/durable-mcp/evidence-jwks.json` (rotate by prepending; keep a retired key as long as entries it signed are to be verified). Read by the API only: it does not start without it",
    '(required by the API; `npm run dev` makes a development key)',
  ),
};
