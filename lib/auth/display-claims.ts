/**
 * What a token or a sign-in says of its holder for people to read: a display name (`name`) and an
 * email, the latter only when the issuer vouches for it (`email_verified`, a boolean, or the string
 * some providers send): an unverified one is whatever the person typed. Both are self-chosen text,
 * so the answer page, the answer API and `durable-mcp exchanges` show them beside the subject and
 * issuer the service verified, never in their place. Trimmed, and cut to a bounded length (in code
 * points, so a cut never splits a character). Pure, and unit-tested beside it.
 */

/** The longest display name (and email) kept. */
export const MAX_NAME_LENGTH = 256;

export interface DisplayClaims {
  name?: string;
  email?: string;
}

/** A claim's text, trimmed and bounded, if it has any. */
export function textClaim(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text.length === 0) return undefined;
  const chars = Array.from(text);
  return chars.length <= MAX_NAME_LENGTH ? text : chars.slice(0, MAX_NAME_LENGTH).join('');
}

/** The display name and the verified email that `claims` name, each only when present. */
export function displayClaimsOf(claims: Record<string, unknown>): DisplayClaims {
  const name = textClaim(claims.name);
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  const email = verified ? textClaim(claims.email) : undefined;
  return { ...(name !== undefined ? { name } : {}), ...(email !== undefined ? { email } : {}) };
}
