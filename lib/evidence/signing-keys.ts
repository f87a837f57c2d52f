/**
 * The evidence log's signing keys (EVIDENCE_SIGNING_KEYS): Ed25519 keys, each written as
 * `kid:base64` of its 32-byte private key (the RFC 8032 seed, what `openssl genpkey -algorithm
 * ed25519` makes and `openssl rand -base64 32` is as good as), the same ring format as the other
 * rings. The first key signs new entries; every key's public half is published in the JWKS
 * (evidence-jwks.ts), so entries signed before a rotation still verify against what is served.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { KeyRingEntry } from '../state/sealer';

/** A public key as a JWKS lists it (RFC 8037 for Ed25519). */
export interface EvidencePublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface EvidenceSigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: EvidencePublicJwk;
}

/** The PKCS #8 wrapping of a raw Ed25519 private key (RFC 8410 §7): this prefix, then the 32 bytes. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function ed25519KeyOf(kid: string, seed: Buffer): EvidenceSigningKey {
  if (seed.length !== 32) throw new Error(`evidence key "${kid}" must be 32 bytes, got ${seed.length}`);
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const { x } = createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string };
  return { kid, privateKey, publicJwk: { kty: 'OKP', crv: 'Ed25519', x, kid, alg: 'EdDSA', use: 'sig' } };
}

/** The signing ring from a parsed key ring (lib/config/key-ring.ts has checked lengths and kids). */
export const evidenceSigningKeysOf = (ring: ReadonlyArray<KeyRingEntry>): EvidenceSigningKey[] =>
  ring.map(({ kid, key }) => ed25519KeyOf(kid, Buffer.from(key)));

/** The JWKS every key of the ring is published in (the signer first). */
export const evidenceJwksOf = (keys: ReadonlyArray<EvidenceSigningKey>) => ({
  keys: keys.map((key) => key.publicJwk),
});
