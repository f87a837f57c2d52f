/**
 * Step-up at the answer page: a person whose sign-in falls short of what a question requires
 * (its addressing's `requireSignIn`: lib/questions/step-up.ts) is sent through the issuer again, asked
 * for it (`max_age`, `acr_values`, or `prompt=login` for methods no acr value names), and comes
 * back to the question. The requirement travels in the sealed pending sign-in, never in the URL;
 * the callback checks the new ID token's `auth_time`, `acr` and `amr` against it, and, when the
 * issuer still did not give what the question needs, says so plainly instead of returning to the
 * question (which would only send the person back to the issuer). The new session is kept either
 * way: the person did sign in. The answer itself is judged by the question's rules, whatever the
 * page did (lib/questions/addressing.ts `admission`).
 */
import type { Response } from 'express';
import { AuthorizationServerUnavailable } from '../../../../../lib/auth/auth-errors';
import type { OidcRelyingParty } from '../../../../../lib/auth/oidc-relying-party';
import {
  describeRequirement,
  describeUnmet,
  unmetRequirement,
  type AuthenticationRequirement,
  type SignInAuthentication,
} from '../../../../../lib/questions/step-up';
import type { Logger } from '../../../../../lib/log';
import { INBOX_PATH } from '../page/answer-paths';
import { PENDING_SIGN_IN_TTL_MS, type AnswerCookies } from './cookies';
import type { PendingRecord, PendingSignIns } from './pending-sign-in';
import { escapeHtml, issuerUnavailable, NO_STORE_HEADERS, signInPage } from './sign-in-pages';

/** Sends the browser through the issuer for a sign-in meeting `requirement`, back to `returnTo` (an answer-page path). */
export type BeginStepUp = (res: Response, requirement: AuthenticationRequirement, returnTo: string) => Promise<void>;

export interface StepUpDeps {
  relyingParty: OidcRelyingParty;
  pending: PendingSignIns;
  cookies: AnswerCookies;
  log: Logger;
}

export function stepUpStarter(deps: StepUpDeps): BeginStepUp {
  return async (res, requirement, returnTo) => {
    let begun: Awaited<ReturnType<OidcRelyingParty['begin']>>;
    try {
      begun = await deps.relyingParty.begin(requirement);
    } catch (error) {
      if (error instanceof AuthorizationServerUnavailable) return issuerUnavailable(res, deps.log, error);
      throw error;
    }
    deps.cookies.set(
      res,
      'pending-sign-in',
      deps.pending.seal(begun.pending, returnTo, requirement),
      PENDING_SIGN_IN_TTL_MS,
    );
    deps.log.info({ returnTo }, 'answer sign-in: step-up, through the issuer for the sign-in a question needs');
    res.set(NO_STORE_HEADERS).redirect(303, begun.url);
  };
}

/**
 * At the callback of a step-up whose new sign-in still falls short (`authentication` at `now`):
 * the page that says so, and true; false when it meets the requirement, or was no step-up.
 */
export function refusedStepUp(
  res: Response,
  pending: PendingRecord,
  authentication: SignInAuthentication,
  now: number,
  log: Logger,
): boolean {
  if (!pending.stepUp) return false;
  const unmet = unmetRequirement(authentication, pending.stepUp, now);
  if (unmet === undefined) return false;
  log.warn({ unmet, returnTo: pending.returnTo }, 'answer sign-in: step-up not met, the issuer gave a weaker sign-in');
  signInPage(
    res,
    403,
    'Your sign-in is not enough for this question',
    `<p>This question needs ${escapeHtml(describeRequirement(pending.stepUp))}. ` +
      `You signed in again, but ${escapeHtml(describeUnmet(unmet, pending.stepUp))}, so you cannot answer it.</p>` +
      '<p>If your account can sign in that way, try again and choose it at the sign-in service; ' +
      'if it cannot, ask whoever runs your sign-in, or have someone else answer.</p>' +
      `<p><a href="${escapeHtml(pending.returnTo)}">Try again</a> · <a href="${INBOX_PATH}">Your questions</a></p>`,
  );
  return true;
}
