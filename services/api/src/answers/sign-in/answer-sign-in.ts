/**
 * The answer page's sign-in, assembled: the relying party (lib/auth/oidc-relying-party.ts), the
 * sealed cookies, the routes, and what the answer page asks of a request (signed-in-requests.ts:
 * who signed in, the CSRF token for its forms, the check of a post). Built only when
 * ANSWER_OIDC_ISSUER is set (`config.answers.signIn`; the development sign-in,
 * dev-answer-sign-in.ts, is the other `AnswerSignIn`); the router is mounted at `/answers`. Its
 * cookies are sealed with ANSWER_SESSION_KEYS, bound to OpenID Connect, the issuer, the public
 * origin and ANSWER_SESSION_EPOCH (cookie-binding.ts), and Secure and `__Host-` whenever the
 * public origin is https (cookies.ts), whatever the request's own scheme.
 */
import type { Router } from 'express';
import type { AnswerSignInConfig } from '../../../../../lib/auth/answer-sign-in-config';
import { createOidcRelyingParty, type OidcRelyingParty } from '../../../../../lib/auth/oidc-relying-party';
import type { Logger } from '../../../../../lib/log';
import type { KeyRingEntry } from '../../../../../lib/state/sealer';
import type { Html } from '../page/html';
import { createAnswerSessions } from './answer-session';
import { answerCookies } from './cookies';
import { createPendingSignIns } from './pending-sign-in';
import { signedInRequests, type SignedInRequests } from './signed-in-requests';
import { createSignInSealer } from './sign-in-sealer';
import { signInRouter } from './sign-in-router';
import { stepUpStarter, type BeginStepUp } from './step-up-sign-in';

export interface AnswerSignInDeps {
  /** The ring the cookies' keys are derived from: ANSWER_SESSION_KEYS (`config.answers.sessions.keys`). */
  keys: ReadonlyArray<KeyRingEntry>;
  /** ANSWER_SESSION_EPOCH (`config.answers.sessions.epoch`); '' when unset. */
  epoch: string;
  log: Logger;
  now?: () => number;
  /** Instead of the one built from `config` (tests). */
  relyingParty?: OidcRelyingParty;
}

export interface AnswerSignIn extends SignedInRequests {
  /** `/sign-in`, `/callback`, `/sign-out` (the development sign-in: no callback): mount at `/answers`. */
  router: Router;
  /** What every answer page shows above all else, when the sign-in has something to warn of (the development one). */
  banner?: Html;
  /**
   * Sends the browser through the issuer again for a sign-in a question requires (step-up-sign-in.ts),
   * back to a question's page; absent with the development sign-in, which has no issuer to ask.
   */
  stepUp?: BeginStepUp;
}

export function createAnswerSignIn(config: AnswerSignInConfig, deps: AnswerSignInDeps): AnswerSignIn {
  const now = deps.now ?? Date.now;
  const sealer = createSignInSealer(deps.keys, {
    mode: 'oidc',
    issuer: config.issuer,
    publicOrigin: config.publicOrigin,
    epoch: deps.epoch,
  });
  const sessions = createAnswerSessions(
    sealer,
    { ttlMs: config.sessionTtlMs, refreshMs: config.sessionRefreshMs },
    now,
  );
  const pending = createPendingSignIns(sealer, now);
  const cookies = answerCookies(config.publicOrigin);
  const requests = signedInRequests(sessions, cookies, config.publicOrigin);

  const relyingParty = deps.relyingParty ?? createOidcRelyingParty(config);
  const router = signInRouter({
    issuer: config.issuer,
    publicOrigin: config.publicOrigin,
    sessionTtlMs: config.sessionTtlMs,
    relyingParty,
    groupsReading: { groupsClaim: config.groupsClaim, scopes: config.scopes },
    pending,
    sessions,
    cookies,
    checkCsrf: requests.checkCsrf,
    log: deps.log,
    now,
  });
  const stepUp = stepUpStarter({ relyingParty, pending, cookies, log: deps.log });

  return { router, stepUp, ...requests };
}
