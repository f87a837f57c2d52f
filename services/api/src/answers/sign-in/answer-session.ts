/**
 * A signed-in answerer's session: their identity, when it was issued and when it ends
 * (ANSWER_SESSION_TTL_MS), and a random CSRF secret, sealed into one cookie (sign-in-sealer.ts).
 * Stateless, so any API replica reads it; a cookie that does not open (altered, a key the ring
 * no longer holds), is not a session, has expired, or claims a longer life than a sign-in gets is
 * no session. Ending one before its time takes the key that sealed it out of the ring.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { AnswererIdentity } from '../../../../../lib/questions/question';
import type { SignInSealer } from './sign-in-sealer';

export interface SessionRecord {
  identity: AnswererIdentity;
  /** Issued at, epoch ms. */
  iat: number;
  /** Ends at, epoch ms. */
  exp: number;
  /** What the session's CSRF tokens are derived from (csrf.ts); 32 random bytes, base64url. */
  csrf: string;
}

/** Replicas' clocks may differ this much. */
const CLOCK_SLACK_MS = 60_000;

const SessionSchema = z.object({
  identity: z.object({
    id: z.string().min(1),
    issuer: z.string().optional(),
    subject: z.string().min(1),
    scopes: z.array(z.string()),
    groups: z.array(z.string()),
    name: z.string().optional(),
    email: z.string().optional(),
  }),
  iat: z.number().int(),
  exp: z.number().int(),
  csrf: z.string().length(43),
});

export interface AnswerSessions {
  /** A new session for `identity` from now: its record and the cookie value that carries it. */
  mint(identity: AnswererIdentity): { record: SessionRecord; value: string };
  /** The session a cookie value carries, if it is one that holds now. */
  open(value: string | undefined): SessionRecord | undefined;
}

export function createAnswerSessions(sealer: SignInSealer, ttlMs: number, now: () => number): AnswerSessions {
  return {
    mint(identity) {
      const iat = now();
      const record: SessionRecord = { identity, iat, exp: iat + ttlMs, csrf: randomBytes(32).toString('base64url') };
      return { record, value: sealer.seal('session', record) };
    },
    open(value) {
      if (value === undefined) return undefined;
      const parsed = SessionSchema.safeParse(sealer.open('session', value));
      if (!parsed.success) return undefined;
      const { iat, exp } = parsed.data;
      const at = now();
      if (exp <= at || iat > at + CLOCK_SLACK_MS || exp - iat > ttlMs + CLOCK_SLACK_MS) return undefined;
      const { identity } = parsed.data;
      return {
        ...parsed.data,
        identity: {
          id: identity.id,
          ...(identity.issuer !== undefined ? { issuer: identity.issuer } : {}),
          subject: identity.subject,
          scopes: identity.scopes,
          groups: identity.groups,
          ...(identity.name !== undefined ? { name: identity.name } : {}),
          ...(identity.email !== undefined ? { email: identity.email } : {}),
        },
      };
    },
  };
}
