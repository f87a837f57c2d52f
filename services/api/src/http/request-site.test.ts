// Pins which posts a browser marks as another site's: the answer pages and the codec sign-in refuse them.
import { crossSiteReason } from './request-site';

const origin = 'https://answers.example.com';
const own = { isOwnOrigin: (o: string) => o === origin, described: 'ANSWER_PUBLIC_URL' };

describe('crossSiteReason', () => {
  it.each([
    [{ secFetchSite: 'cross-site', origin }, 'Sec-Fetch-Site: cross-site'],
    [{ secFetchSite: 'same-site' }, 'Sec-Fetch-Site: same-site'],
    [{ origin: 'https://evil.example' }, 'Origin is not ANSWER_PUBLIC_URL'],
    [{ origin: 'null' }, 'Origin is not ANSWER_PUBLIC_URL'],
    [{ origin: 'null', secFetchSite: 'same-site' }, 'Sec-Fetch-Site: same-site'],
  ])('refuses %j', (site, reason) => {
    expect(crossSiteReason(site, own)).toBe(reason);
  });

  it.each([
    // A form post from a page with Referrer-Policy: no-referrer, as a browser sends it.
    [{ origin: 'null', secFetchSite: 'same-origin' }],
    [{ origin, secFetchSite: 'same-origin' }],
    [{ origin }],
    [{}],
  ])('takes %j', (site) => {
    expect(crossSiteReason(site, own)).toBeUndefined();
  });
});
