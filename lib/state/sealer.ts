/**
 * Authenticated encryption (AES-256-GCM) over a key ring.
 *
 * Every key has an id; the first key seals, every key opens, so keys rotate without breaking
 * tokens in flight: add the new key first, keep the old one until its tokens have expired. Each
 * purpose (client requestState, handler state) gets its own subkey through HKDF, and the purpose,
 * key id and caller-supplied context are authenticated as additional data, so a token minted for
 * one purpose or exchange never opens for another.
 *
 * Failures throw `SealError` with a short reason meant for logs only; callers answer with one
 * opaque error so the reason never reaches the client.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export type SealPurpose = 'request-state' | 'handler-state';

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
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const TOKEN_PATTERN = /^([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]+)$/;

export function createSealer(ring: ReadonlyArray<KeyRingEntry>): Sealer {
  if (ring.length === 0) throw new Error('the key ring needs at least one key');
  const subkeys = new Map<string, Buffer>();
  const subkey = (kid: string, master: Buffer, purpose: SealPurpose): Buffer => {
    const id = `${kid}/${purpose}`;
    let derived = subkeys.get(id);
    if (!derived) {
      derived = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `durable-mcp/${purpose}`, 32));
      subkeys.set(id, derived);
    }
    return derived;
  };
  const byKid = new Map(ring.map((entry) => [entry.kid, entry.key]));
  const minting = ring[0]!;

  return {
    seal(purpose, plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', subkey(minting.kid, minting.key, purpose), iv);
      cipher.setAAD(Buffer.from(`${purpose}|${minting.kid}|${context}`));
      const body = Buffer.concat([iv, cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${minting.kid}.${body.toString('base64url')}`;
    },

    open(purpose, token, context) {
      const match = TOKEN_PATTERN.exec(token);
      if (!match) throw new SealError('malformed');
      const [, kid, encoded] = match as unknown as [string, string, string];
      const master = byKid.get(kid);
      if (!master) throw new SealError('unknown-key');
      const body = Buffer.from(encoded, 'base64url');
      if (body.length < IV_BYTES + TAG_BYTES) throw new SealError('malformed');
      const decipher = createDecipheriv('aes-256-gcm', subkey(kid, master, purpose), body.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(`${purpose}|${kid}|${context}`));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      try {
        return Buffer.concat([
          decipher.update(body.subarray(IV_BYTES, body.length - TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SealError('authentication');
      }
    },
  };
}
