/**
 * The value of a 2026-07-28 header that mirrors a body field (`Mcp-Name`, `Mcp-Param-{Name}`;
 * SEP-2243 "Value Encoding"), as the body would hold it. A value a header cannot carry as plain
 * ASCII (non-ASCII, control characters, leading or trailing whitespace, or one that looks like the
 * sentinel itself) travels as `=?base64?{Base64 of its UTF-8}?=`; anything else is literal.
 *
 * Decoding is strict, because the SEP's test-case table says so and because a lenient decoder
 * (Node's `Buffer.from(..., 'base64')` skips bad characters and missing padding) would let two
 * different header values reach the handler as one: a padding error, a character outside the
 * Base64 alphabet or bytes that are not UTF-8 make the value invalid, and so does a plain value
 * with a character outside visible ASCII, space and tab (Node's parser lets obs-text bytes through
 * as Latin-1).
 */

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
/** Canonical Base64 (RFC 4648 §4): whole quanta, `=` padding only at the end and only as needed. */
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** RFC 9110 field-value characters a plain (not encoded) value may hold: visible ASCII, SP, HTAB. */
const PLAIN_VALUE = /^[\x20-\x7e\t]*$/;

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type DecodedHeaderValue = { ok: true; value: string } | { ok: false; problem: string };

export function decodeHeaderValue(raw: string): DecodedHeaderValue {
  // The markers are case-sensitive and both must be there: `=?BASE64?...?=` or a value missing
  // its suffix is a literal, not an encoding.
  const encoded =
    raw.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length &&
    raw.startsWith(SENTINEL_PREFIX) &&
    raw.endsWith(SENTINEL_SUFFIX);
  if (!encoded) {
    return PLAIN_VALUE.test(raw)
      ? { ok: true, value: raw }
      : { ok: false, problem: 'holds characters outside visible ASCII (Base64-encode such values)' };
  }
  const base64 = raw.slice(SENTINEL_PREFIX.length, raw.length - SENTINEL_SUFFIX.length);
  if (!CANONICAL_BASE64.test(base64)) return { ok: false, problem: 'is not valid Base64 inside =?base64?...?=' };
  try {
    return { ok: true, value: utf8.decode(Buffer.from(base64, 'base64')) };
  } catch {
    return { ok: false, problem: 'does not decode to UTF-8' };
  }
}
