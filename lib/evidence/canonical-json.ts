/**
 * The canonical form of a JSON value every evidence digest and every entry's payload is made of:
 * RFC 8785 (JSON Canonicalization Scheme, JCS), so a third party recomputes the same bytes with any
 * JCS library. Object members sorted by their names' UTF-16 code units, no whitespace, strings and
 * numbers as ECMAScript's JSON.stringify writes them (which is what JCS specifies). A value JCS
 * cannot represent (a number that is not finite, a function, a bigint) is refused, never written
 * as `null`. For the values the service digests already, this is the same text as
 * lib/exchange/digest.ts `canonicalJson` (a question's `shownDigest` is therefore JCS too).
 */
import { createHash } from 'node:crypto';

export function canonicalize(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`JCS cannot represent the number ${value}`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalize(item ?? null)).join(',')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      // Default string order compares UTF-16 code units, as RFC 8785 §3.2.3 asks.
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${canonicalize(member)}`).join(',')}}`;
  }
  throw new TypeError(`JCS cannot represent a ${typeof value}`);
}

/** SHA-256 of `bytes`, base64url without padding: how every digest and link of the log is written. */
export function sha256Base64url(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('base64url');
}

/** The digest of a JSON value: SHA-256 of its JCS bytes (UTF-8), base64url. */
export const digestOfJson = (value: unknown): string => sha256Base64url(canonicalize(value));
