/**
 * What the answer page's sign-in seals into its cookies: JSON, under the service's AES-256-GCM
 * sealer (lib/state/sealer.ts), with keys of its own derived by HKDF from each key of the ring it
 * is given (REQUEST_STATE_KEYS, key ids kept), so a cookie never opens as a requestState nor one
 * as a cookie, and the ring's rotation rules hold as they are: the first key seals, every key
 * opens. Each kind of cookie (the pending sign-in, the development sign-in's form, the session)
 * is sealed under a context of its own, so one is never taken for the other. A value that does
 * not open, or is not the JSON sealed, is undefined: the caller treats it as no cookie at all.
 */
import { hkdfSync } from 'node:crypto';
import { createSealer, type KeyRingEntry } from '../../../../../lib/state/sealer';

export type SealedKind = 'pending-sign-in' | 'dev-sign-in' | 'session';

export interface SignInSealer {
  seal(kind: SealedKind, value: unknown): string;
  open(kind: SealedKind, token: string): unknown;
}

/** The keys of the answer page's cookies: one per key of `ring`, under the same key id. */
export function answerCookieRing(ring: ReadonlyArray<KeyRingEntry>): KeyRingEntry[] {
  return ring.map(({ kid, key }) => ({
    kid,
    key: Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'durable-mcp/answer-sign-in-cookies', 32)),
  }));
}

export function createSignInSealer(ring: ReadonlyArray<KeyRingEntry>): SignInSealer {
  const sealer = createSealer(answerCookieRing(ring));
  // The sealer's purposes are those of lib/state; the derived keys already set these cookies apart.
  const PURPOSE = 'request-state';
  const context = (kind: SealedKind) => `answer-sign-in/${kind}`;
  return {
    seal: (kind, value) => sealer.seal(PURPOSE, JSON.stringify(value), context(kind)),
    open(kind, token) {
      try {
        return JSON.parse(sealer.open(PURPOSE, token, context(kind))) as unknown;
      } catch {
        return undefined;
      }
    },
  };
}
