/**
 * One person, one identity: the answer page's sign-in and /mcp's access tokens must name a person
 * the same way, or `excludeCaller` and `answerer.caller()` compare strangers. So, with
 * AUTH_MODE=oauth, the page's issuer must be one of OAUTH_ISSUERS exactly as spelled there (a
 * trailing slash is another issuer), unless ANSWER_IDENTITY_CLAIM names the claim that keys a
 * person on both sides (person-key.ts). Pure; lib/config/config.ts refuses to start on a problem.
 */
import type { AnswerSignInConfig } from './answer-sign-in-config';
import type { AuthConfig } from './auth-config';

export function oneIdentityProblem(auth: AuthConfig, signIn: AnswerSignInConfig | undefined): string | undefined {
  if (auth.mode !== 'oauth' || signIn === undefined || auth.identityClaim !== undefined) return undefined;
  if (auth.issuers.includes(signIn.issuer)) return undefined;
  return (
    `ANSWER_OIDC_ISSUER (${signIn.issuer}) is not one of OAUTH_ISSUERS (${auth.issuers.join(', ')}), exactly: ` +
    'a person signed in at the answer page could not be told from the caller of /mcp. Sign people in at the ' +
    'issuer of the access tokens, spelled as OAUTH_ISSUERS spells it, or set ANSWER_IDENTITY_CLAIM to a claim ' +
    'both carry for the same person (oid, or email)'
  );
}
