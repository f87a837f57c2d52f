/**
 * A sign-in that cannot be completed because of what came back, not because the issuer is down:
 * the token endpoint refused the code (replayed, expired, for another client), or the ID token
 * does not verify. The browser is told only that the sign-in failed and may start again; the
 * reason is for the log. An issuer that cannot be reached is `AuthorizationServerUnavailable`.
 */
export class SignInRefused extends Error {
  override readonly name = 'SignInRefused';
  constructor(
    /** Why, for the log (never shown to the browser). */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`sign-in refused: ${reason}`, options);
  }
}
