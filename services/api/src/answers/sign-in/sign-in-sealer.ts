/**
 * What the answer page's sign-in seals into its cookies: JSON, under the service's AES-256-GCM
 * sealer (lib/state/sealer.ts), with keys of its own derived by HKDF from each key of
 * ANSWER_SESSION_KEYS (key ids kept): a ring only the API holds, never the worker, which runs
 * handler code and holds the requestState and payload keys. The ring's rotation rules hold as
 * they are: the first key seals, every key opens. Each kind of cookie (the pending sign-in, the
 * development sign-in's form, the session) is sealed under a context of its own, so one is never
 * taken for the other, and every one under the deployment's binding (cookie-binding.ts). A value
 * that does not open, or is not the JSON sealed, is undefined: the caller treats it as no cookie.
 */
import { hkdfSync } from 'node:crypto';
import { createSealer, type KeyRingEntry } from '../../../../../lib/state/sealer';
import { bindingContext, type CookieBinding } from './cookie-binding';

export type SealedKind = 'pending-sign-in' | 'dev-sign-in' | 'session';

export interface SignInSealer {
  seal(kind: SealedKind, value: unknown): string;
  open(kind: SealedKind, token: string): unknown;
}

/** The keys of the answer page's cookies: one per key of `ring`, under the same key id. */
export function answerCookieRing(ring: ReadonlyArray<KeyRingEntry>): KeyRingEntry[] {
  return ring.map(({ kid, key }) => ({
    kid,
    key: Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'durable-mcp/answer-page-cookies', 32)),
  }));
}

export function createSignInSealer(ring: ReadonlyArray<KeyRingEntry>, binding: CookieBinding): SignInSealer {
  const sealer = createSealer(answerCookieRing(ring));
  // The sealer's purposes are those of lib/state; the derived keys already set these cookies apart.
  const PURPOSE = 'request-state';
  const bound = bindingContext(binding);
  const context = (kind: SealedKind) => `answer-page/${kind}|${bound}`;
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
