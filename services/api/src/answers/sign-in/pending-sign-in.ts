/**
 * A sign-in between `/answers/sign-in` and the callback, kept by the browser: the PKCE verifier,
 * the state and nonce, where to go back to, and, for a step-up, what the question asked of the
 * sign-in (checked against the ID token when it comes back), sealed (sign-in-sealer.ts) with its
 * expiry inside, so the cookie's own Max-Age is not what ends it. Any API replica can finish it.
 * The state is compared in constant time: it is what keeps another's callback (login CSRF) out.
 */
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { PendingSignIn } from '../../../../../lib/auth/oidc-authorization-request';
import type { AuthenticationRequirement } from '../../../../../lib/questions/step-up';
import { PENDING_SIGN_IN_TTL_MS } from './cookies';
import type { SignInSealer } from './sign-in-sealer';

export interface PendingRecord extends PendingSignIn {
  returnTo: string;
  /** Epoch ms past which the sign-in is over. */
  exp: number;
  /** A step-up's: what the sign-in must meet (a question's `requireSignIn`). */
  stepUp?: AuthenticationRequirement;
}

const Values = z.array(z.string().min(1).max(64)).max(10);

const PendingSchema = z.object({
  state: z.string().min(1).max(128),
  nonce: z.string().min(1).max(128),
  verifier: z.string().min(43).max(128),
  returnTo: z.string().min(1).max(2048),
  exp: z.number().int(),
  stepUp: z
    .object({ maxAgeS: z.number().int().nonnegative().optional(), acr: Values.optional(), amr: Values.optional() })
    .optional(),
});

/** A requirement as the schema read it, without its absent parts. */
const requirementOf = ({ maxAgeS, acr, amr }: z.infer<typeof PendingSchema>['stepUp'] & object) => ({
  ...(maxAgeS !== undefined ? { maxAgeS } : {}),
  ...(acr !== undefined ? { acr } : {}),
  ...(amr !== undefined ? { amr } : {}),
});

export interface PendingSignIns {
  /** `stepUp`: what the sign-in must meet when it comes back (a step-up for a question). */
  seal(pending: PendingSignIn, returnTo: string, stepUp?: AuthenticationRequirement): string;
  /** The pending sign-in a cookie holds, unless it does not open, is not one, or has expired. */
  open(value: string | undefined): PendingRecord | undefined;
}

export function createPendingSignIns(sealer: SignInSealer, now: () => number): PendingSignIns {
  return {
    seal: (pending, returnTo, stepUp) =>
      sealer.seal('pending-sign-in', {
        ...pending,
        returnTo,
        exp: now() + PENDING_SIGN_IN_TTL_MS,
        ...(stepUp ? { stepUp } : {}),
      }),
    open(value) {
      if (value === undefined) return undefined;
      const parsed = PendingSchema.safeParse(sealer.open('pending-sign-in', value));
      if (!parsed.success || parsed.data.exp <= now()) return undefined;
      const { stepUp, ...pending } = parsed.data;
      return { ...pending, ...(stepUp ? { stepUp: requirementOf(stepUp) } : {}) };
    },
  };
}

/** Whether the callback's `state` is the pending sign-in's. */
export function stateMatches(pending: PendingRecord, state: unknown): boolean {
  if (typeof state !== 'string') return false;
  const given = Buffer.from(state);
  const expected = Buffer.from(pending.state);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
