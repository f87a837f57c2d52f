/**
 * Whether a browser says a request comes from another site, for the forms this server posts to
 * itself (the answer pages, the codec sign-in). A post is cross-site when `Sec-Fetch-Site` says
 * `cross-site` or `same-site` (a sibling subdomain is another origin too), or when its `Origin` is
 * not the server's own. Those pages send `Referrer-Policy: no-referrer`, which makes a browser send
 * `Origin: null` with their own posts, so `null` is taken only when `Sec-Fetch-Site` says the post
 * came from this very origin. A request with neither header (not a browser, or a very old one)
 * passes: forms that need more carry a token as well. Pure.
 */
import type { Request } from 'express';

/** The headers a browser sends about where a request comes from. */
export interface RequestSite {
  origin?: string;
  secFetchSite?: string;
}

export const requestSiteOf = (req: Request): RequestSite => ({
  origin: req.get('origin'),
  secFetchSite: req.get('sec-fetch-site'),
});

/** Why the request's site is refused, or undefined when it may be the server's own page. */
export function crossSiteReason(
  site: RequestSite,
  own: { isOwnOrigin: (origin: string) => boolean; described: string },
): string | undefined {
  const fetchSite = site.secFetchSite?.toLowerCase();
  if (fetchSite === 'cross-site' || fetchSite === 'same-site') return `Sec-Fetch-Site: ${fetchSite}`;
  if (site.origin === 'null' && fetchSite === 'same-origin') return undefined;
  if (site.origin !== undefined && !own.isOwnOrigin(site.origin)) return `Origin is not ${own.described}`;
  return undefined;
}
