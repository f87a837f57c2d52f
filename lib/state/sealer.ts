/**
 * Authenticated encryption (AES-256-GCM) over a key ring.
 *
 * Every key has an id; the first key seals, every key opens, so keys rotate without breaking
 * tokens in flight: add the new key first, keep the old one until its tokens have expired. Each
 * purpose (client requestState, handler state, payloads put into Temporal) gets its own subkey
 * through HKDF, and the purpose, key id and caller-supplied context are authenticated as
 * additional data, so a token minted for one purpose or exchange never opens for another.
 * Strings seal to `kid.base64url` tokens; bytes seal to the key id and `iv ‖ ciphertext ‖ tag`.
 *
 * Failures throw `SealError` with a short reason meant for logs only; callers answer with one
 * opaque error so the reason never reaches the client.
 */
import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import { createIvSource } from './random-ivs';

export type SealPurpose = 'request-state' | 'handler-state' | 'temporal-payload';

export type SealFailure = 'malformed' | 'unknown-key' | 'authentication';

export class SealError extends Error {
  override readonly name = 'SealError';
  constructor(readonly reason: SealFailure) {
    super(`sealed value rejected: ${reason}`);
  }
}

export interface KeyRingEntry {
  kid: string;
  key: Buffer;
}

export interface Sealer {
  seal(purpose: SealPurpose, plaintext: string, context: string): string;
  open(purpose: SealPurpose, token: string, context: string): string;
  /** Seals bytes under the first key: the key id it used, and `iv ‖ ciphertext ‖ tag`. */
  sealBytes(purpose: SealPurpose, plaintext: Uint8Array, context: string): { kid: string; sealed: Buffer };
  /** Opens what `sealBytes` sealed under `kid`. */
  openBytes(purpose: SealPurpose, kid: string, sealed: Uint8Array, context: string): Buffer;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]+)$/;

export function createSealer(ring: ReadonlyArray<KeyRingEntry>): Sealer {
  if (ring.length === 0) throw new Error('the key ring needs at least one key');
  // Kept as key objects: given raw bytes, every cipher would first build a key object of its own,
  // which costs more than the AES-GCM of a small payload.
  const subkeys = new Map<string, KeyObject>();
  const subkey = (kid: string, master: Buffer, purpose: SealPurpose): KeyObject => {
    const id = `${kid}/${purpose}`;
    let derived = subkeys.get(id);
    if (!derived) {
      derived = createSecretKey(Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `durable-mcp/${purpose}`, 32)));
      subkeys.set(id, derived);
    }
    return derived;
  };
  const byKid = new Map(ring.map((entry) => [entry.kid, entry.key]));
  const minting = ring[0]!;
  const nextIv = createIvSource(IV_BYTES);

  const sealer: Sealer = {
    seal(purpose, plaintext, context) {
      const { kid, sealed } = sealer.sealBytes(purpose, Buffer.from(plaintext, 'utf8'), context);
      return `${kid}.${sealed.toString('base64url')}`;
    },

    open(purpose, token, context) {
      const match = TOKEN_PATTERN.exec(token);
      if (!match) throw new SealError('malformed');
      const [, kid, encoded] = match as unknown as [string, string, string];
      return sealer.openBytes(purpose, kid, Buffer.from(encoded, 'base64url'), context).toString('utf8');
    },

    sealBytes(purpose, plaintext, context) {
      const iv = nextIv();
      const cipher = createCipheriv('aes-256-gcm', subkey(minting.kid, minting.key, purpose), iv);
      cipher.setAAD(Buffer.from(`${purpose}|${minting.kid}|${context}`));
      const sealed = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
      return { kid: minting.kid, sealed };
    },

    openBytes(purpose, kid, sealed, context) {
      const master = byKid.get(kid);
      if (!master) throw new SealError('unknown-key');
      if (sealed.length < IV_BYTES + TAG_BYTES) throw new SealError('malformed');
      const decipher = createDecipheriv('aes-256-gcm', subkey(kid, master, purpose), sealed.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(`${purpose}|${kid}|${context}`));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
      } catch {
        throw new SealError('authentication');
      }
    },
  };
  return sealer;
}
