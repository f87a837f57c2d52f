/**
 * A browser as far as the sign-in tests need one: plain `fetch` with redirects followed by hand
 * and a cookie jar kept per origin (stricter than a browser, which shares cookies across ports:
 * the test's issuer and app both listen on 127.0.0.1). Cookies are set and cleared as
 * `Set-Cookie` says (`Max-Age=0` or an expiry in the past clears one); attributes are kept so a
 * test can check them.
 */
export interface JarCookie {
  value: string;
  attributes: string[];
}

export class Browser {
  /** origin → cookie name → cookie. */
  readonly jar = new Map<string, Map<string, JarCookie>>();

  cookiesOf(origin: string): Map<string, JarCookie> {
    let cookies = this.jar.get(origin);
    if (!cookies) this.jar.set(origin, (cookies = new Map()));
    return cookies;
  }

  cookie(origin: string, name: string): JarCookie | undefined {
    return this.cookiesOf(origin).get(name);
  }

  setCookieValue(origin: string, name: string, value: string): void {
    this.cookiesOf(origin).set(name, { value, attributes: [] });
  }

  private store(origin: string, response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair, ...attributes] = header.split(';').map((part) => part.trim());
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      const cleared = attributes.some(
        (a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) <= Date.now()),
      );
      if (cleared || value === '') this.cookiesOf(origin).delete(name);
      else this.cookiesOf(origin).set(name, { value, attributes });
    }
  }

  /** One request, cookies sent and stored, no redirect followed. */
  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const { origin } = new URL(url);
    const cookie = [...this.cookiesOf(origin)].map(([name, c]) => `${name}=${c.value}`).join('; ');
    const headers = new Headers(init.headers);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(origin, response);
    return response;
  }

  /** A form post (urlencoded). */
  post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields),
    });
  }
}

/** Where a redirect points, resolved against the URL that answered it. */
export function locationOf(response: Response, from: string): string {
  const location = response.headers.get('location');
  if (location === null) throw new Error(`expected a redirect from ${from}, got HTTP ${response.status}`);
  return new URL(location, from).href;
}

/** A login page's form as a person fills it in: where it posts, and what. */
export type FillForm = (page: string, url: string) => { action: string; fields: Record<string, string> };

/**
 * Plays a person at a provider from an authorization URL: redirect by redirect, each page's form
 * filled in by `fill` and posted, until the provider sends the browser back to `appOrigin`.
 * Returns that callback URL, not yet followed, so a test can alter it first.
 */
export async function playLogin(browser: Browser, authorizationUrl: string, appOrigin: string, fill: FillForm) {
  let url = authorizationUrl;
  for (let step = 0; step < 20; step++) {
    if (new URL(url).origin === appOrigin) return url;
    const response = await browser.request(url);
    if (response.status >= 300 && response.status < 400) {
      url = locationOf(response, url);
      continue;
    }
    const page = await response.text();
    if (response.status !== 200)
      throw new Error(`the provider answered HTTP ${response.status}: ${page.slice(0, 300)}`);
    const { action, fields } = fill(page, url);
    const submitted = await browser.post(action, fields);
    url = locationOf(submitted, action);
  }
  throw new Error('the provider never sent the browser back');
}

/**
 * Plays the answerer at the test issuer (oidc-provider's dev interactions): its login page (any
 * login, and `loginFields` besides, such as a one-time code), then consent.
 */
export const loginAtIssuer = (
  browser: Browser,
  authorizationUrl: string,
  login: string,
  appOrigin: string,
  loginFields: Record<string, string> = {},
) =>
  playLogin(browser, authorizationUrl, appOrigin, (page, url) => {
    const action = new URL(/<form[^>]*action="([^"]+)"/.exec(page)![1]!, url).href;
    const prompt = /name="prompt" value="([a-z]+)"/.exec(page)![1]!;
    return { action, fields: prompt === 'login' ? { prompt, login, password: 'any', ...loginFields } : { prompt } };
  });
