/**
 * A signed-in answerer's session: their identity, when it was issued, when what it says of them
 * must be read from the issuer again (ANSWER_SESSION_REFRESH_MS) and when it ends
 * (ANSWER_SESSION_TTL_MS), and a random CSRF secret, sealed into one cookie (sign-in-sealer.ts,
 * bound to the sign-in, the issuer, the public origin and the epoch). Stateless, so any API
 * replica reads it; a cookie that does not open (altered, a key the ring no longer holds, another
 * binding, an earlier epoch), is not a session, has expired, or claims a longer life than a
 * sign-in gets is no session. A session past its refresh still opens (who it was, its sign-out),
 * but is not fresh: the page acts for nobody on it (signed-in-requests.ts). Ending every session
 * before its time is changing ANSWER_SESSION_EPOCH, or taking the key that sealed it out of the ring.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { SignInAuthentication } from '../../../../../lib/questions/step-up';
import type { AnswererIdentity } from '../../../../../lib/questions/question';
import type { SignInSealer } from './sign-in-sealer';

export interface SessionRecord {
  identity: AnswererIdentity;
  /** Issued at, epoch ms. */
  iat: number;
  /** From this time (epoch ms) the identity and groups must be read from the issuer again. */
  refreshAt: number;
  /** Ends at, epoch ms. */
  exp: number;
  /** What the session's CSRF tokens are derived from (csrf.ts); 32 random bytes, base64url. */
  csrf: string;
  /**
   * How the person authenticated at the issuer, as the ID token said (`auth_time`, `acr`, `amr`):
   * what a question's step-up requirement is checked against (lib/questions/step-up.ts). Empty with the
   * development sign-in.
   */
  authentication: SignInAuthentication;
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
  refreshAt: z.number().int(),
  exp: z.number().int(),
  csrf: z.string().length(43),
  authentication: z
    .object({
      authTime: z.number().int().optional(),
      acr: z.string().optional(),
      amr: z.array(z.string()).optional(),
    })
    .default({}),
});

export interface AnswerSessions {
  /** A new session for `identity` from now (signed in as `authentication` says): its record and the cookie value that carries it. */
  mint(identity: AnswererIdentity, authentication?: SignInAuthentication): { record: SessionRecord; value: string };
  /** The session a cookie value carries, if it is one that holds now (fresh or not). */
  open(value: string | undefined): SessionRecord | undefined;
  /** Whether what `session` says of its answerer may still be acted on, or must be read again. */
  isFresh(session: SessionRecord): boolean;
}

export interface SessionLifetimes {
  /** ANSWER_SESSION_TTL_MS. */
  ttlMs: number;
  /** ANSWER_SESSION_REFRESH_MS (at most `ttlMs`); the development sign-in's is its TTL. */
  refreshMs: number;
}

export function createAnswerSessions(
  sealer: SignInSealer,
  { ttlMs, refreshMs }: SessionLifetimes,
  now: () => number,
): AnswerSessions {
  return {
    mint(identity, authentication = {}) {
      const iat = now();
      const record: SessionRecord = {
        identity,
        iat,
        refreshAt: iat + Math.min(refreshMs, ttlMs),
        exp: iat + ttlMs,
        csrf: randomBytes(32).toString('base64url'),
        authentication,
      };
      return { record, value: sealer.seal('session', record) };
    },
    isFresh: (session) => now() < session.refreshAt,
    open(value) {
      if (value === undefined) return undefined;
      const parsed = SessionSchema.safeParse(sealer.open('session', value));
      if (!parsed.success) return undefined;
      const { iat, exp, refreshAt } = parsed.data;
      const at = now();
      if (exp <= at || iat > at + CLOCK_SLACK_MS || exp - iat > ttlMs + CLOCK_SLACK_MS) return undefined;
      if (refreshAt < iat || refreshAt - iat > refreshMs + CLOCK_SLACK_MS) return undefined;
      const { identity, authentication } = parsed.data;
      return {
        ...parsed.data,
        authentication: {
          ...(authentication.authTime !== undefined ? { authTime: authentication.authTime } : {}),
          ...(authentication.acr !== undefined ? { acr: authentication.acr } : {}),
          ...(authentication.amr !== undefined ? { amr: authentication.amr } : {}),
        },
        identity: {
          id: identity.id,
          // A session is a person's, signed in at the page: nothing else mints one.
          kind: 'person',
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
