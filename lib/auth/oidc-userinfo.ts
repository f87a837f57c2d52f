/**
 * The provider's userinfo endpoint (OpenID Connect Core §5.3), asked with the sign-in's access
 * token when the ID token lacks the groups or a name (many providers keep profile claims out of
 * the ID token of a code flow). Only a JSON answer is read (a signed or encrypted one is not
 * supported), up to MAX_USERINFO_BYTES, within the request timeout. A provider that cannot answer
 * fails the sign-in rather than let the answerer in without the groups they hold.
 */
import { AuthorizationServerUnavailable } from './auth-errors';
import { boundedJson } from './bounded-body';

export const MAX_USERINFO_BYTES = 64 * 1024;

export async function fetchUserinfo(
  issuer: string,
  endpoint: string,
  accessToken: string,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const unavailable = (why: string, cause?: unknown) =>
    new AuthorizationServerUnavailable(`userinfo of ${issuer}: ${why}`, issuer, { cause });
  let response: Response;
  try {
    response = await fetch(endpoint, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw unavailable('could not be reached', error);
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !/^application\/json\b/i.test(type)) {
    await response.body?.cancel();
    throw unavailable(response.ok ? `answered ${type.slice(0, 64) || 'no content type'}` : `HTTP ${response.status}`);
  }
  let body: unknown;
  try {
    body = await boundedJson(response, MAX_USERINFO_BYTES);
  } catch (error) {
    throw unavailable('answered too much', error);
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw unavailable('answered no JSON object');
  return body as Record<string, unknown>;
}
