/**
 * How an OAuth client proves itself at a token endpoint: a confidential client by HTTP Basic
 * (`client_secret_basic`, RFC 6749 §2.3.1: id and secret each form-encoded first, so a `:` or a
 * non-ASCII character in them survives), a public one by naming itself in the body (§3.2.1).
 */

/** The `Authorization` header of `client_secret_basic`. */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

/** The header and body fields that authenticate `clientId` (with a secret) or name it (without). */
export function clientAuthentication(
  clientId: string,
  clientSecret: string | undefined,
): { headers: Record<string, string>; body: Record<string, string> } {
  return clientSecret !== undefined
    ? { headers: { authorization: basicAuthorization(clientId, clientSecret) }, body: {} }
    : { headers: {}, body: { client_id: clientId } };
}
