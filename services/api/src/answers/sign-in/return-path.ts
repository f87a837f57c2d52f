/**
 * Where a sign-in sends the browser back to: a path of the answer page (`/answers`, or under
 * `/answers/`) on this service's own origin, with its query, and nothing else, so `return` can
 * never make the sign-in an open redirect (`//evil.example`, `https://evil.example`, `/\evil`,
 * `/answers/../admin`). The path is read the way a browser would resolve it against the public
 * origin, then checked; what comes back is that resolved form. Pure, and unit-tested beside it.
 */

/** Where a sign-in without `return` goes. */
export const DEFAULT_RETURN_PATH = '/answers';
const MAX_RETURN_LENGTH = 2048;
/** The sign-in's own routes: returning to them would start it again. */
const NOT_RETURNED_TO = ['/answers/sign-in', '/answers/callback', '/answers/sign-out'];

/** `raw` as a same-origin answer-page path (path and query), or undefined when it is not one. */
export function safeReturnPath(raw: unknown, publicOrigin: string): string | undefined {
  if (raw === undefined) return DEFAULT_RETURN_PATH;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_RETURN_LENGTH) return undefined;
  // Only a path: not a scheme, not `//host`, no backslash (browsers read it as a slash), no control characters.
  if (!raw.startsWith('/') || raw.startsWith('//') || /[\\\x00-\x1f\x7f]/.test(raw)) return undefined;
  let url: URL;
  try {
    url = new URL(raw, publicOrigin);
  } catch {
    return undefined;
  }
  if (url.origin !== publicOrigin) return undefined;
  const { pathname } = url;
  if (pathname !== '/answers' && !pathname.startsWith('/answers/')) return undefined;
  if (NOT_RETURNED_TO.some((route) => pathname === route || pathname.startsWith(`${route}/`))) return undefined;
  return `${pathname}${url.search}`;
}
