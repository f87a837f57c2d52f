/**
 * The answer page's sign-in, assembled: the relying party (lib/auth/oidc-relying-party.ts), the
 * sealed cookies, the routes, and what the answer page asks of a request (signed-in-requests.ts:
 * who signed in, the CSRF token for its forms, the check of a post). Built only when
 * ANSWER_OIDC_ISSUER is set (`config.answers.signIn`; the development sign-in,
 * dev-answer-sign-in.ts, is the other `AnswerSignIn`); the router is mounted at `/answers`, in an
 * app whose `trust proxy` is TRUST_PROXY (the cookies' Secure follows `req.secure`).
 */
import type { Router } from 'express';
import type { AnswerSignInConfig } from '../../../../../lib/auth/answer-sign-in-config';
import { createOidcRelyingParty, type OidcRelyingParty } from '../../../../../lib/auth/oidc-relying-party';
import type { Logger } from '../../../../../lib/log';
import type { KeyRingEntry } from '../../../../../lib/state/sealer';
import type { Html } from '../page/html';
import { createAnswerSessions } from './answer-session';
import { createPendingSignIns } from './pending-sign-in';
import { signedInRequests, type SignedInRequests } from './signed-in-requests';
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

export interface AnswerSignIn extends SignedInRequests {
  /** `/sign-in`, `/callback`, `/sign-out` (the development sign-in: no callback): mount at `/answers`. */
  router: Router;
  /** What every answer page shows above all else, when the sign-in has something to warn of (the development one). */
  banner?: Html;
}

export function createAnswerSignIn(config: AnswerSignInConfig, deps: AnswerSignInDeps): AnswerSignIn {
  const now = deps.now ?? Date.now;
  const sealer = createSignInSealer(deps.keys);
  const sessions = createAnswerSessions(sealer, config.sessionTtlMs, now);
  const pending = createPendingSignIns(sealer, now);
  const requests = signedInRequests(sessions, config.publicOrigin);

  const router = signInRouter({
    issuer: config.issuer,
    publicOrigin: config.publicOrigin,
    sessionTtlMs: config.sessionTtlMs,
    relyingParty: deps.relyingParty ?? createOidcRelyingParty(config),
    pending,
    sessions,
    checkCsrf: requests.checkCsrf,
    log: deps.log,
  });

  return { router, ...requests };
}
