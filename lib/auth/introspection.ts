/**
 * Opaque access tokens, asked of the authorization server (RFC 7662 introspection) as the
 * confidential client OAUTH_INTROSPECTION_CLIENT_ID: the answer must say `active`, name the
 * issuer asked (when it names one), an audience this request accepts and an expiry. The answer is
 * kept for OAUTH_INTROSPECTION_CACHE_MS (never past the token's expiry), keyed by the token's
 * SHA-256, so the token itself is never held; the audience is checked again on every use. An
 * opaque token does not say who issued it, so one issuer is asked for every one: the first of
 * OAUTH_ISSUERS whose metadata names an introspection endpoint, and while it (or an issuer before
 * it) cannot be read, 503, never another issuer.
 *
 * What a caller can make this server send the authorization server is bounded: an inactive answer
 * is kept too, for INACTIVE_ANSWER_CACHE_MS (so the same forged token does not cost a request
 * each time it is sent); identical questions in flight at once share one request; and at most
 * OAUTH_INTROSPECTION_MAX_CONCURRENT requests are out at a time, past which a token not yet
 * known is answered 503 with Retry-After (`AuthorizationServerUnavailable`), not queued.
 */
import { createHash } from 'node:crypto';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { OAuthConfig } from './auth-config';
import { AuthorizationServerUnavailable } from './auth-errors';
import { basicAuthorization } from './client-authentication';
import type { IssuerMetadataSource } from './issuer-metadata';
import { audienceForms, audiencesOf, authInfoFromClaims, type TokenClaims } from './token-claims';
import { REFUSAL, TokenRefused } from './token-refusal';

/** Answers kept at most (active and inactive each); past it the oldest goes first. */
const MAX_CACHED_ANSWERS = 10_000;
/** How long an inactive answer is kept: long enough to absorb a storm, short enough for a token just issued. */
export const INACTIVE_ANSWER_CACHE_MS = 5_000;

const AnswerSchema = z.looseObject({
  active: z.boolean(),
  iss: z.string().optional(),
  exp: z.number().optional(),
});

type Answer = z.infer<typeof AnswerSchema> & TokenClaims;

export type Introspector = (token: string, resources: readonly string[]) => Promise<AuthInfo>;

export function createIntrospector(
  config: OAuthConfig & { introspection: NonNullable<OAuthConfig['introspection']> },
  metadata: IssuerMetadataSource,
  now: () => number = Date.now,
): Introspector {
  const { clientId, clientSecret, cacheMs, maxConcurrent } = config.introspection;
  const cache = new Map<string, { issuer: string; answer: Answer; until: number }>();
  const inactive = new Map<string, { issuer: string; answer: Answer; until: number }>();
  const inFlight = new Map<string, Promise<{ issuer: string; answer: Answer }>>();

  async function endpoint(): Promise<{ issuer: string; url: string }> {
    // Always the same issuer: the first whose metadata names an endpoint. An issuer whose metadata
    // cannot be read now (down, or backing off) might be that one, so it is an outage (503), never
    // a reason to ask the next: that would hand this issuer's live tokens to another authorization
    // server, and keep the other's "inactive" for them as a refusal.
    for (const issuer of config.issuers) {
      const url = (await metadata.get(issuer)).introspection_endpoint;
      if (url) return { issuer, url };
    }
    throw new AuthorizationServerUnavailable('no trusted issuer names an introspection endpoint', config.issuers[0]!);
  }

  async function ask(token: string): Promise<{ issuer: string; answer: Answer }> {
    const { issuer, url } = await endpoint();
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: basicAuthorization(clientId, clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        redirect: 'error',
        signal: AbortSignal.timeout(config.requestTimeoutMs),
      });
    } catch (error) {
      throw new AuthorizationServerUnavailable(`introspection at ${issuer} could not be reached`, issuer, {
        cause: error,
      });
    }
    // A refused client (401/403) is this server's misconfiguration: an outage, not the caller's token.
    if (!response.ok)
      throw new AuthorizationServerUnavailable(`introspection answered HTTP ${response.status}`, issuer);
    const parsed = AnswerSchema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success)
      throw new AuthorizationServerUnavailable('introspection answered no RFC 7662 document', issuer);
    return { issuer, answer: parsed.data as Answer };
  }

  function remember(key: string, issuer: string, answer: Answer): void {
    if (!answer.active) {
      if (inactive.size >= MAX_CACHED_ANSWERS) inactive.delete(inactive.keys().next().value!);
      inactive.set(key, { issuer, answer, until: now() + INACTIVE_ANSWER_CACHE_MS });
      return;
    }
    if (cacheMs === 0 || typeof answer.exp !== 'number') return;
    if (cache.size >= MAX_CACHED_ANSWERS) cache.delete(cache.keys().next().value!);
    cache.set(key, { issuer, answer, until: Math.min(now() + cacheMs, answer.exp * 1000) });
  }

  /** A kept answer for `key` still good now, if any. */
  function kept(key: string): { issuer: string; answer: Answer } | undefined {
    for (const store of [cache, inactive]) {
      const entry = store.get(key);
      if (entry && entry.until > now()) return entry;
      store.delete(key);
    }
    return undefined;
  }

  /** One request per distinct token at a time, and at most `maxConcurrent` in all. */
  function askOnce(key: string, token: string): Promise<{ issuer: string; answer: Answer }> {
    const pending = inFlight.get(key);
    if (pending) return pending;
    if (inFlight.size >= maxConcurrent)
      return Promise.reject(
        new AuthorizationServerUnavailable(
          `${maxConcurrent} introspections already in flight (OAUTH_INTROSPECTION_MAX_CONCURRENT)`,
          config.issuers[0]!,
        ),
      );
    const asked = ask(token)
      .then((found) => {
        remember(key, found.issuer, found.answer);
        return found;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, asked);
    return asked;
  }

  return async function introspect(token, resources) {
    const key = createHash('sha256').update(token).digest('base64url');
    const found = kept(key) ?? (await askOnce(key, token));
    const { issuer, answer } = found;
    if (!answer.active) throw new TokenRefused(REFUSAL.inactive, 'introspection: not active');
    if (answer.iss !== undefined && answer.iss !== issuer) throw new TokenRefused(REFUSAL.issuer, 'introspection: iss');
    const accepted = resources.flatMap(audienceForms);
    if (!audiencesOf(answer).some((aud) => accepted.includes(aud))) {
      throw new TokenRefused(REFUSAL.audience, 'introspection: aud');
    }
    if (typeof answer.exp !== 'number') throw new TokenRefused(REFUSAL.invalid, 'introspection: no exp');
    if (answer.exp * 1000 <= now()) throw new TokenRefused(REFUSAL.expired, 'introspection: exp');
    return authInfoFromClaims(token, answer, issuer, resources, config);
  };
}
