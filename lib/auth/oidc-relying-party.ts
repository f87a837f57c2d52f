/**
 * The answer page's OpenID Connect relying party: the authorization code flow with PKCE (S256),
 * as a confidential client (a secret, `client_secret_basic`) or a public one. `begin` makes a
 * sign-in's secrets and the URL to send the browser to; `complete` trades the code that came back
 * for tokens, verifies the ID token against those secrets, and says who signed in. The browser
 * keeps the secrets in between (sealed, in a cookie), so any API replica can finish the sign-in.
 * Each part is a file of its own: discovery, the request, the exchange, the ID token, userinfo,
 * the claims.
 */
import type { AnswererIdentity } from '../questions/question';
import type { AnswerSignInConfig } from './answer-sign-in-config';
import { answererFromClaims, lacksProfile, pairwiseProblem, withUserinfo, type Claims } from './answerer-claims';
import { createIdTokenVerifier } from './id-token';
import {
  authenticationFromClaims,
  stepUpParameters,
  type AuthenticationRequirement,
  type SignInAuthentication,
} from '../questions/step-up';
import { authorizationUrl, newPendingSignIn, type PendingSignIn } from './oidc-authorization-request';
import { createOidcDiscovery } from './oidc-discovery';
import { exchangeCode } from './oidc-token-exchange';
import { fetchUserinfo } from './oidc-userinfo';
import { SignInRefused } from './sign-in-refused';

export type RelyingPartyConfig = Pick<
  AnswerSignInConfig,
  | 'issuer'
  | 'clientId'
  | 'clientSecret'
  | 'redirectUri'
  | 'identityClaim'
  | 'scopes'
  | 'groupsClaim'
  | 'requestTimeoutMs'
  | 'clockToleranceS'
>;

export interface OidcRelyingParty {
  /**
   * A new sign-in: its secrets (to keep until the callback) and the issuer's URL for the browser;
   * with `stepUp`, the issuer is asked for a sign-in that meets it (`max_age`, `acr_values`).
   */
  begin(stepUp?: AuthenticationRequirement): Promise<{ pending: PendingSignIn; url: string }>;
  /**
   * The identity the callback's `code` proves, for the sign-in `pending` began, and how the person
   * authenticated (the ID token's `auth_time`, `acr`, `amr`). Throws `SignInRefused` (the code or
   * the token is not good) or `AuthorizationServerUnavailable`.
   */
  complete(
    code: string,
    pending: PendingSignIn,
  ): Promise<{ identity: AnswererIdentity; authentication: SignInAuthentication }>;
}

export function createOidcRelyingParty(config: RelyingPartyConfig): OidcRelyingParty {
  const { issuer, requestTimeoutMs: timeoutMs } = config;
  const discovery = createOidcDiscovery(issuer, timeoutMs);
  const verifyIdToken = createIdTokenVerifier({
    issuer,
    clientId: config.clientId,
    clockToleranceS: config.clockToleranceS,
    timeoutMs,
    discovery,
  });

  return {
    async begin(stepUp) {
      const metadata = await discovery.get();
      const pending = newPendingSignIn();
      const url = authorizationUrl(
        {
          authorizationEndpoint: metadata.authorization_endpoint,
          clientId: config.clientId,
          redirectUri: config.redirectUri,
          scopes: config.scopes,
          ...(stepUp ? { stepUp: stepUpParameters(stepUp) } : {}),
        },
        pending,
      );
      return { pending, url };
    },

    async complete(code, pending) {
      const metadata = await discovery.get();
      const tokens = await exchangeCode({
        issuer,
        tokenEndpoint: metadata.token_endpoint,
        clientId: config.clientId,
        ...(config.clientSecret !== undefined ? { clientSecret: config.clientSecret } : {}),
        redirectUri: config.redirectUri,
        code,
        verifier: pending.verifier,
        timeoutMs,
      });
      const idToken = await verifyIdToken(tokens.idToken, pending.nonce);
      // How the person authenticated is the ID token's word alone, never userinfo's.
      const authentication = authenticationFromClaims(idToken);
      let claims: Claims = idToken;
      if (lacksProfile(claims, config.groupsClaim) && metadata.userinfo_endpoint && tokens.accessToken) {
        const userinfo = await fetchUserinfo(issuer, metadata.userinfo_endpoint, tokens.accessToken, timeoutMs);
        const merged = withUserinfo(claims, userinfo);
        if (!merged) throw new SignInRefused('userinfo names another subject than the ID token');
        claims = merged;
      }
      const pairwise = pairwiseProblem(metadata, config.identityClaim);
      if (pairwise !== undefined) throw new SignInRefused(pairwise);
      return {
        identity: answererFromClaims(issuer, claims, config.groupsClaim, config.identityClaim),
        authentication,
      };
    },
  };
}
