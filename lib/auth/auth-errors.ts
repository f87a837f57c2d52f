/**
 * The one failure of token validation that is not the token's fault: an authorization server
 * (its metadata, its keys, its introspection endpoint) could not be reached or answered nonsense.
 * The caller gets 503 with `Retry-After`, never 401, since a 401 would send every client to
 * re-authenticate in a loop against a server that is down. Its message is for the log.
 */
export class AuthorizationServerUnavailable extends Error {
  override readonly name = 'AuthorizationServerUnavailable';
  constructor(
    message: string,
    /** The issuer whose server failed. */
    readonly issuer: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
