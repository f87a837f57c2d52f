/**
 * Webhook secrets as Standard Webhooks spells them: `whsec_` and the key in base64. The key is
 * what HMAC takes (the decoded bytes, not the text), so a receiver's library that follows the
 * specification verifies what the service signs.
 */

export const SECRET_PREFIX = 'whsec_';
/** The specification's bounds on a key: enough to resist guessing, short enough for one HMAC block. */
export const MIN_SECRET_BYTES = 24;
export const MAX_SECRET_BYTES = 64;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Why `text` is no usable secret, or undefined when it is one. */
export function secretProblem(text: string): string | undefined {
  if (!text.startsWith(SECRET_PREFIX)) return `must start with ${SECRET_PREFIX}`;
  const encoded = text.slice(SECRET_PREFIX.length);
  if (!BASE64.test(encoded) || encoded.length % 4 !== 0) return `must be ${SECRET_PREFIX} and base64`;
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < MIN_SECRET_BYTES || bytes > MAX_SECRET_BYTES)
    return `must hold ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes (openssl rand -base64 32), not ${bytes}`;
  return undefined;
}

/**
 * The HMAC key of a secret. A receiver may pass its secret with or without the prefix (libraries
 * differ); a malformed one throws, naming no part of it.
 */
export function secretKey(text: string): Buffer {
  const prefixed = text.startsWith(SECRET_PREFIX) ? text : SECRET_PREFIX + text;
  const problem = secretProblem(prefixed);
  if (problem !== undefined) throw new Error(`a webhook secret ${problem}`);
  return Buffer.from(prefixed.slice(SECRET_PREFIX.length), 'base64');
}
