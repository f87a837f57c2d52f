/**
 * The answer page's sign-in, assembled: the relying party (lib/auth/oidc-relying-party.ts), the
 * sealed cookies, the routes, and what the answer page asks of a request: who signed in
 * (`answererOf`), the CSRF token for its forms (`csrfTokenFor`) and the check of a post
 * (`checkCsrf`). Built only when ANSWER_OIDC_ISSUER is set (`config.answers.signIn`); the
 * router is mounted at `/answers`, in an app whose `trust proxy` is TRUST_PROXY (the cookies'
 * Secure follows `req.secure`).
 */
import type { Request, Router } from 'express';
import type { AnswerSignInConfig } from '../../../../../lib/auth/answer-sign-in-config';
import { createOidcRelyingParty, type OidcRelyingParty } from '../../../../../lib/auth/oidc-relying-party';
import type { Logger } from '../../../../../lib/log';
import type { AnswererIdentity } from '../../../../../lib/questions/question';
import type { KeyRingEntry } from '../../../../../lib/state/sealer';
import { createAnswerSessions } from './answer-session';
import { readCookie } from './cookies';
import { crossSiteReason, csrfTokenOf, tokenMatches } from './csrf';
import { createPendingSignIns } from './pending-sign-in';
import { createSignInSealer } from './sign-in-sealer';
import { signInRouter } from './sign-in-router';

export interface AnswerSignInDeps {
  /** The ring the cookies' keys are derived from: REQUEST_STATE_KEYS (`config.requestState.keys`). */
  keys: ReadonlyArray<KeyRingEntry>;
  log: Logger;
  now?: () => number;
  /** Instead of the one built from `config` (tests). */
  relyingParty?: OidcRelyingParty;
}

export interface AnswerSignIn {
  /** `/sign-in`, `/callback`, `/sign-out`: mount at `/answers`. */
  router: Router;
  /** Who is signed in on this request; undefined without a session, or with one expired or altered. */
  answererOf(req: Request): AnswererIdentity | undefined;
  /** The CSRF token the answer page's forms carry for this request's session; undefined when signed out. */
  csrfTokenFor(req: Request): string | undefined;
  /** Whether a post may act for this request's session: same-site, from the public origin, with its token. */
  checkCsrf(req: Request, token: unknown): boolean;
}

export function createAnswerSignIn(config: AnswerSignInConfig, deps: AnswerSignInDeps): AnswerSignIn {
  const now = deps.now ?? Date.now;
  const sealer = createSignInSealer(deps.keys);
  const sessions = createAnswerSessions(sealer, config.sessionTtlMs, now);
  const pending = createPendingSignIns(sealer, now);
  const sessionOf = (req: Request) => sessions.open(readCookie(req, 'session'));

  const checkCsrf = (req: Request, token: unknown): boolean => {
    const site = { origin: req.get('origin'), secFetchSite: req.get('sec-fetch-site') };
    if (crossSiteReason(site, config.publicOrigin) !== undefined) return false;
    const session = sessionOf(req);
    return session !== undefined && tokenMatches(session, token);
  };

  const router = signInRouter({
    issuer: config.issuer,
    publicOrigin: config.publicOrigin,
    sessionTtlMs: config.sessionTtlMs,
    relyingParty: deps.relyingParty ?? createOidcRelyingParty(config),
    pending,
    sessions,
    checkCsrf,
    log: deps.log,
  });

  return {
    router,
    answererOf: (req) => sessionOf(req)?.identity,
    csrfTokenFor(req) {
      const session = sessionOf(req);
      return session ? csrfTokenOf(session) : undefined;
    },
    checkCsrf,
  };
}
