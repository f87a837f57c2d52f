/**
 * What every cookie of the answer page is bound to, besides its key: how the person signed in
 * (OpenID Connect or the development sign-in), at which issuer, for which public origin
 * (ANSWER_PUBLIC_URL), and under which revocation epoch (ANSWER_SESSION_EPOCH). It is sealed in
 * as additional data (sign-in-sealer.ts), so a cookie opens only where all four are the same: a
 * development sign-in's session, another deployment's (another origin under the same keys),
 * another issuer's, or one issued before the epoch changed is no cookie at all.
 */
export type SignInMode = 'oidc' | 'dev';

export interface CookieBinding {
  mode: SignInMode;
  /** The OpenID Connect issuer; none with the development sign-in. */
  issuer?: string;
  /** ANSWER_PUBLIC_URL, as an origin. */
  publicOrigin: string;
  /** ANSWER_SESSION_EPOCH; '' when unset. */
  epoch: string;
}

/** The binding as the sealer authenticates it: each part in its place, none able to stand for another. */
export const bindingContext = (binding: CookieBinding): string =>
  JSON.stringify([binding.mode, binding.issuer ?? '', binding.publicOrigin, binding.epoch]);
