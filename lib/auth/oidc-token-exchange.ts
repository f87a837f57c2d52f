/**
 * The second leg of the authorization code flow (OpenID Connect Core §3.1.3): the code and its
 * PKCE verifier traded at the token endpoint for an ID token (and an access token, for userinfo).
 * The issuer refusing (`invalid_grant`: a code replayed, expired or minted for another sign-in) is
 * `SignInRefused`; the issuer unreachable, slow, erring or answering nonsense is
 * `AuthorizationServerUnavailable`. The response is read up to MAX_TOKEN_RESPONSE_BYTES.
 */
import { z } from 'zod';
import { AuthorizationServerUnavailable } from './auth-errors';
import { boundedJson } from './bounded-body';
import { clientAuthentication } from './client-authentication';
import { SignInRefused } from './sign-in-refused';

/** A token response is a few kilobytes (tokens with many claims); past this it is not one. */
export const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

export interface CodeExchange {
  issuer: string;
  tokenEndpoint: string;
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
  code: string;
  verifier: string;
  timeoutMs: number;
}

export interface TokenResponse {
  idToken: string;
  accessToken?: string;
}

const TokenSchema = z.looseObject({
  id_token: z.string().min(1),
  access_token: z.string().min(1).optional(),
  token_type: z.string().optional(),
});

const ErrorSchema = z.looseObject({ error: z.string() });

export async function exchangeCode(exchange: CodeExchange): Promise<TokenResponse> {
  const { issuer } = exchange;
  const auth = clientAuthentication(exchange.clientId, exchange.clientSecret);
  let response: Response;
  try {
    response = await fetch(exchange.tokenEndpoint, {
      method: 'POST',
      headers: { ...auth.headers, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: exchange.code,
        redirect_uri: exchange.redirectUri,
        code_verifier: exchange.verifier,
        ...auth.body,
      }),
      redirect: 'error',
      signal: AbortSignal.timeout(exchange.timeoutMs),
    });
  } catch (error) {
    throw new AuthorizationServerUnavailable(`the token endpoint of ${issuer} could not be reached`, issuer, {
      cause: error,
    });
  }
  let body: unknown;
  try {
    body = await boundedJson(response, MAX_TOKEN_RESPONSE_BYTES);
  } catch (error) {
    throw new AuthorizationServerUnavailable(`the token endpoint of ${issuer} answered too much`, issuer, {
      cause: error,
    });
  }
  if (!response.ok) {
    const refusal = ErrorSchema.safeParse(body);
    // RFC 6749 §5.2: 400 (or 401 for the client) with an error code. `invalid_client` is this
    // deployment's misconfiguration, not the browser's: said apart in the log by its code.
    if (response.status < 500 && refusal.success)
      throw new SignInRefused(`the token endpoint refused the code: ${refusal.data.error.slice(0, 64)}`);
    throw new AuthorizationServerUnavailable(
      `the token endpoint of ${issuer} answered HTTP ${response.status}`,
      issuer,
    );
  }
  const parsed = TokenSchema.safeParse(body);
  if (!parsed.success) throw new SignInRefused('the token response carries no id_token');
  const tokenType = parsed.data.token_type;
  const usableAccessToken =
    parsed.data.access_token !== undefined && (tokenType ?? 'bearer').toLowerCase() === 'bearer';
  return {
    idToken: parsed.data.id_token,
    ...(usableAccessToken ? { accessToken: parsed.data.access_token! } : {}),
  };
}
