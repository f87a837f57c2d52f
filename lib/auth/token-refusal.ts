/**
 * A token refused for what it is (forged, expired, for another audience, from an issuer this
 * server does not trust, ...): the SDK's `invalid_token` OAuth error, whose message is what the
 * client reads in `error_description`, plus the precise reason (a jose error code, say) that only
 * the log gets.
 */
import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';

export class TokenRefused extends OAuthError {
  constructor(
    description: string,
    /** Why, for the log only: never sent to the client. */
    readonly reason: string,
  ) {
    super(OAuthErrorCode.InvalidToken, description);
  }
}

/** The descriptions a client may read: one per kind of refusal, nothing about keys or claims. */
export const REFUSAL = {
  invalid: 'The access token is invalid',
  expired: 'The access token has expired',
  audience: 'The access token was not issued for this resource',
  issuer: 'The access token was not issued by an authorization server this resource trusts',
  inactive: 'The access token is not active',
} as const;
