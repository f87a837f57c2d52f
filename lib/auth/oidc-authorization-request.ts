/**
 * The first leg of the authorization code flow (OpenID Connect Core §3.1.2.1, PKCE per RFC 7636):
 * the URL the browser is sent to, and the secrets the callback must match. `state` ties the
 * callback to the browser that started it (login CSRF), `nonce` ties the ID token to this sign-in
 * (replay), and the PKCE verifier ties the code to it (a code stolen on the way back is useless
 * without it, for a public client too). Each is 32 random bytes. Pure but for the randomness.
 */
import { createHash, randomBytes } from 'node:crypto';

/** What the callback needs to finish the sign-in; kept by the browser, sealed, until it comes back. */
export interface PendingSignIn {
  state: string;
  nonce: string;
  /** The PKCE code verifier (43 characters of base64url). */
  verifier: string;
}

export interface AuthorizationRequestParams {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  scopes: readonly string[];
  /** Step-up parameters (`max_age`, `acr_values`: step-up.ts), added as they are. */
  stepUp?: Readonly<Record<string, string>>;
}

/** 32 random bytes as base64url: a state, a nonce or a PKCE verifier. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** The S256 code challenge of a verifier (RFC 7636 §4.2). */
export const pkceChallenge = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** The authorization URL for `pending` (the endpoint's own query parameters kept). */
export function authorizationUrl(params: AuthorizationRequestParams, pending: PendingSignIn): string {
  const url = new URL(params.authorizationEndpoint);
  // The step-up's first, so none of them can stand for one of the flow's own.
  const query = {
    ...params.stepUp,
    response_type: 'code',
    client_id: params.clientId,
    redirect_uri: params.redirectUri,
    scope: params.scopes.join(' '),
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: pkceChallenge(pending.verifier),
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.href;
}

/** A new sign-in's secrets. */
export const newPendingSignIn = (): PendingSignIn => ({
  state: randomToken(),
  nonce: randomToken(),
  verifier: randomToken(),
});
