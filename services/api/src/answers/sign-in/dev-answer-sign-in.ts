/**
 * The answer page's development sign-in (ANSWER_DEV_SIGN_IN), assembled as the `AnswerSignIn` the
 * answer page takes: the form's cookie and the session cookie under the same sealer as the OpenID
 * Connect sign-in's (keys derived from REQUEST_STATE_KEYS), its routes (dev-sign-in-router.ts),
 * what the pages ask of a request (signed-in-requests.ts, the same as with OpenID Connect), and
 * the banner every page shows. Built only when `config.answers.devSignIn` is set, which
 * lib/config allows with AUTH_MODE=off alone.
 */
import type { AnswerDevSignInConfig } from '../../../../../lib/auth/answer-dev-sign-in-config';
import type { Logger } from '../../../../../lib/log';
import type { KeyRingEntry } from '../../../../../lib/state/sealer';
import { DEV_SIGN_IN_BANNER } from '../page/dev-sign-in-banner';
import type { AnswerSignIn } from './answer-sign-in';
import { createAnswerSessions } from './answer-session';
import { createDevSignInForms } from './dev-sign-in-forms';
import { devSignInRouter } from './dev-sign-in-router';
import { signedInRequests } from './signed-in-requests';
import { createSignInSealer } from './sign-in-sealer';

export interface DevAnswerSignInDeps {
  /** The ring the cookies' keys are derived from: REQUEST_STATE_KEYS (`config.requestState.keys`). */
  keys: ReadonlyArray<KeyRingEntry>;
  log: Logger;
  now?: () => number;
}

export function createDevAnswerSignIn(config: AnswerDevSignInConfig, deps: DevAnswerSignInDeps): AnswerSignIn {
  const now = deps.now ?? Date.now;
  const sealer = createSignInSealer(deps.keys);
  const sessions = createAnswerSessions(sealer, config.sessionTtlMs, now);
  const requests = signedInRequests(sessions, config.publicOrigin);
  const router = devSignInRouter({
    publicOrigin: config.publicOrigin,
    sessionTtlMs: config.sessionTtlMs,
    forms: createDevSignInForms(sealer, now),
    sessions,
    checkCsrf: requests.checkCsrf,
    log: deps.log,
  });
  return { router, banner: DEV_SIGN_IN_BANNER, ...requests };
}
