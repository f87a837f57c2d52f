/** The kinds of value a variable holds, each parsed strictly, so a typo stops the start instead of meaning 0. */
import { z } from 'zod';

// Decimal digits only: z.coerce would take "" as 0 and "0x50" as 80. `tooSmall` says why a value
// below `min` is refused, where the bare number would not.
export const integer = (min: number, max = Number.MAX_SAFE_INTEGER, tooSmall?: string) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a decimal integer')
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(min, tooSmall !== undefined ? `must be at least ${min}: ${tooSmall}` : undefined)
        .max(max),
    );

// An empty value is the same as none (compose passes `VAR: ${VAR:-}` through as "").
export const unsetWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

/** `true` or `false`, spelled so. */
export const boolean = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default(fallback)
    .transform((value) => value === 'true');

/** A bearer token the service checks: long enough not to be guessed, printable, optional. */
export const secretToken = () =>
  unsetWhenEmpty(
    z
      .string()
      .min(32, 'must be at least 32 characters (openssl rand -hex 32)')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  );

const KEY_RING_PATTERN = /^[A-Za-z0-9_-]{1,32}:[A-Za-z0-9+/=_-]+$/;

/** A key ring: comma-separated `kid:base64key` pairs (each key is checked for 32 bytes by parseKeyRing). */
export const keyRing = () =>
  z
    .string()
    .min(1)
    .refine(
      (ring) => ring.split(',').every((entry) => KEY_RING_PATTERN.test(entry.trim())),
      'must be comma-separated kid:base64key pairs',
    );

/**
 * An origin as browsers send it (`scheme://host[:port]`: lower case, no default port), or undefined
 * when the text is not one (a path, a query, `null`, not a URL).
 */
function originOf(text: string): string | undefined {
  if (!URL.canParse(text)) return undefined;
  const url = new URL(text);
  if (url.origin === 'null' || url.username || url.password || url.search || url.hash) return undefined;
  return url.pathname === '/' ? url.origin : undefined;
}

/** Comma-separated browser origins (`scheme://host[:port]`, nothing after it), as a list in the form browsers send. */
export const origins = () =>
  z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((o) => originOf(o) !== undefined),
      'must be comma-separated origins such as http://127.0.0.1:8080 (scheme, host and port only)',
    )
    .transform((list) => list.map((o) => originOf(o)!));

const HOST_NAME = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/;

/** Comma-separated host names or addresses (no scheme, no port), as a lower-case list. */
export const hostNames = () =>
  z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .refine(
      (list) => list.every((h) => HOST_NAME.test(h)),
      'must be host names or addresses, comma-separated, without scheme or port',
    );
