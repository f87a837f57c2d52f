/**
 * Random IVs for AES-GCM, drawn from the CSPRNG a batch at a time: one `randomFillSync` per 256
 * IVs instead of a `randomBytes` call per seal, which the bench's profile showed costing about a
 * quarter of a millisecond of CPU per exchange (each call is a synchronous crypto job of its own).
 * Every IV is as random as before, so GCM's bound on random IVs per key is unchanged. Each batch is
 * a fresh buffer handed out once, slice by slice: an IV given out is never overwritten or reused.
 */
import { randomFillSync } from 'node:crypto';

export function createIvSource(ivBytes: number, batch = 256): () => Buffer {
  let pool = Buffer.alloc(0);
  let offset = 0;
  return () => {
    if (offset + ivBytes > pool.length) {
      pool = randomFillSync(Buffer.allocUnsafe(ivBytes * batch));
      offset = 0;
    }
    const iv = pool.subarray(offset, offset + ivBytes);
    offset += ivBytes;
    return iv;
  };
}
