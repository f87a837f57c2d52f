/** Key rings (REQUEST_STATE_KEYS, PAYLOAD_CODEC_KEYS): read and checked once, at start. */
import type { KeyRingEntry } from '../state/sealer';
import { ConfigError } from './errors';

/**
 * Parses a key ring variable (`REQUEST_STATE_KEYS`, `PAYLOAD_CODEC_KEYS`): `kid:base64key` pairs,
 * first key first; every key must decode to exactly 32 bytes (AES-256) and every kid be unique.
 */
export function parseKeyRing(variable: string, ring: string): KeyRingEntry[] {
  const keys = ring.split(',').map((entry) => {
    const [kid, encoded] = entry.trim().split(':') as [string, string];
    const key = Buffer.from(encoded, 'base64');
    if (key.length !== 32) {
      throw new ConfigError(`${variable}: key "${kid}" must decode to 32 bytes, got ${key.length}`);
    }
    return { kid, key };
  });
  const kids = new Set(keys.map((k) => k.kid));
  if (kids.size !== keys.length) throw new ConfigError(`${variable}: key ids must be unique`);
  return keys;
}
