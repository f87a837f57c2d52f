/**
 * The development sign-in's form between showing it and its post: a random secret and an expiry,
 * sealed (sign-in-sealer.ts) into a cookie of its own, and the form's CSRF token derived from the
 * secret (csrf.ts). There is no session yet for the token to belong to, and without one a page on
 * another site could post the form and sign the developer's browser in as whoever it chose (login
 * CSRF): a cross-site post carries no SameSite=Lax cookie, so it has no secret to match, and the
 * Origin check refuses it besides. Stateless, as the session is; the cookie is spent on sign-in.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { PENDING_SIGN_IN_TTL_MS } from './cookies';
import { formTokenMatches, formTokenOf } from './csrf';
import type { SignInSealer } from './sign-in-sealer';

const FormSchema = z.object({ secret: z.string().length(43), exp: z.number().int() });

const BINDING = 'durable-mcp/answer-dev-sign-in';

export interface DevSignInForms {
  /** A new form: the cookie value that holds its secret, and the token its hidden field carries. */
  issue(): { cookie: string; token: string };
  /** The token of the form a cookie holds, unless it does not open, is not one, or has expired. */
  tokenOf(cookie: string | undefined): string | undefined;
  /** Whether `token` is the token of the form whose cookie is `cookie`. */
  matches(cookie: string | undefined, token: unknown): boolean;
}

export function createDevSignInForms(sealer: SignInSealer, now: () => number): DevSignInForms {
  const tokenOf = (cookie: string | undefined): string | undefined => {
    if (cookie === undefined) return undefined;
    const parsed = FormSchema.safeParse(sealer.open('dev-sign-in', cookie));
    if (!parsed.success || parsed.data.exp <= now()) return undefined;
    return formTokenOf(parsed.data.secret, BINDING);
  };
  return {
    issue() {
      const secret = randomBytes(32).toString('base64url');
      const cookie = sealer.seal('dev-sign-in', { secret, exp: now() + PENDING_SIGN_IN_TTL_MS });
      return { cookie, token: formTokenOf(secret, BINDING) };
    },
    tokenOf,
    matches(cookie, token) {
      const expected = tokenOf(cookie);
      return expected !== undefined && formTokenMatches(expected, token);
    },
  };
}
