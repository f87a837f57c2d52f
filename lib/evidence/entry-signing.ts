/**
 * An entry as it is kept and exported: a JWS in compact serialization (RFC 7515), `EdDSA` over
 * Ed25519, whose protected header names the signing key (`kid`) and the entry's type, and whose
 * payload is the entry's JCS bytes. An entry's hash, what the next entry links to, is SHA-256 of
 * its compact serialization's ASCII bytes (base64url): the link covers the signature too.
 */
import { CompactSign } from 'jose';
import { canonicalize, sha256Base64url } from './canonical-json';
import type { EvidencePayload } from './evidence-entry';
import type { GatewayDecisionPayload } from './gateway-decision-entry';
import type { EvidenceSigningKey } from './signing-keys';

/** The protected header's `typ`. */
export const EVIDENCE_JWS_TYPE = 'durable-mcp-evidence+json';

/** What an entry of either kind signs. */
export type SignedPayload = EvidencePayload | GatewayDecisionPayload;

export async function signEvidence(payload: SignedPayload, key: EvidenceSigningKey): Promise<string> {
  return new CompactSign(new TextEncoder().encode(canonicalize(payload)))
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid, typ: EVIDENCE_JWS_TYPE })
    .sign(key.privateKey);
}

/** The hash of an entry: what `prev` (and `exchangePrev`) of the entry after it says. */
export const entryHash = (jws: string): string => sha256Base64url(jws);
