/**
 * The answer page's development sign-in (ANSWER_DEV_SIGN_IN), assembled as the `AnswerSignIn` the
 * answer page takes: the form's cookie and the session cookie sealed as the OpenID Connect
 * sign-in's are (keys derived from ANSWER_SESSION_KEYS) but bound to the development sign-in
 * (cookie-binding.ts), so neither one's cookie ever opens for the other; its routes (dev-sign-in-router.ts),
 * what the pages ask of a request (signed-in-requests.ts, the same as with OpenID Connect), and
 * the banner every page shows. Built only when `config.answers.devSignIn` is set, which
 * lib/config allows with AUTH_MODE=off alone. With no issuer to ask, its sessions do not refresh,
 * and a question's step-up is a page saying what it needs, with the way to the form again (where
 * the developer types the `acr` and `amr` it names), back to the question.
 */
import type { AnswerDevSignInConfig } from '../../../../../lib/auth/answer-dev-sign-in-config';
import type { Logger } from '../../../../../lib/log';
import type { KeyRingEntry } from '../../../../../lib/state/sealer';
import { DEV_SIGN_IN_BANNER } from '../page/dev-sign-in-banner';
import type { AnswerSignIn } from './answer-sign-in';
import { createAnswerSessions } from './answer-session';
import { answerCookies } from './cookies';
import { createDevSignInForms } from './dev-sign-in-forms';
import { describeRequirement } from '../../../../../lib/questions/step-up';
import { DEV_SIGN_IN_PATH, devSignInPage } from './dev-sign-in-page';
import { escapeHtml, NO_STORE_HEADERS } from './sign-in-pages';
import type { BeginStepUp } from './step-up-sign-in';
import { devSignInRouter } from './dev-sign-in-router';
import { signedInRequests } from './signed-in-requests';
import { createSignInSealer } from './sign-in-sealer';

export interface DevAnswerSignInDeps {
  /** The ring the cookies' keys are derived from: ANSWER_SESSION_KEYS (`config.answers.sessions.keys`). */
  keys: ReadonlyArray<KeyRingEntry>;
  /** ANSWER_SESSION_EPOCH (`config.answers.sessions.epoch`); '' when unset. */
  epoch: string;
  log: Logger;
  now?: () => number;
}

/** A step-up, here: what the question needs, and the way to the form again, back to the question. */
const devStepUp: BeginStepUp = async (res, requirement, returnTo) => {
  const form = `${DEV_SIGN_IN_PATH}?return=${encodeURIComponent(returnTo)}`;
  res.set(NO_STORE_HEADERS);
  devSignInPage(
    res,
    403,
    'Sign in again for this question',
    `<p>This question needs ${escapeHtml(describeRequirement(requirement))}, and your sign-in is not that.</p>` +
      `<p><a href="${escapeHtml(form)}">Sign in again</a>, naming the methods and level it needs.</p>`,
  );
};

export function createDevAnswerSignIn(config: AnswerDevSignInConfig, deps: DevAnswerSignInDeps): AnswerSignIn {
  const now = deps.now ?? Date.now;
  const sealer = createSignInSealer(deps.keys, { mode: 'dev', publicOrigin: config.publicOrigin, epoch: deps.epoch });
  const lifetime = config.sessionTtlMs;
  const sessions = createAnswerSessions(sealer, { ttlMs: lifetime, refreshMs: lifetime }, now);
  const cookies = answerCookies(config.publicOrigin);
  const requests = signedInRequests(sessions, cookies, config.publicOrigin);
  const router = devSignInRouter({
    publicOrigin: config.publicOrigin,
    sessionTtlMs: config.sessionTtlMs,
    forms: createDevSignInForms(sealer, now),
    sessions,
    cookies,
    checkCsrf: requests.checkCsrf,
    log: deps.log,
    now,
  });
  return { router, banner: DEV_SIGN_IN_BANNER, stepUp: devStepUp, ...requests };
}
