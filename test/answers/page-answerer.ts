/**
 * A person at the answer page, over HTTP as a browser would be: signed in at the deployment's
 * OpenID provider (its login form filled in, any account name), reading a question's page and
 * posting its form with the CSRF token and the digest of what it showed.
 */
import { until } from '../support/until';
import { Browser, locationOf, loginAtIssuer } from './browser';

/** What a browser sends with its own form posts from the page (Referrer-Policy: no-referrer). */
export const SAME_ORIGIN = { origin: 'null', 'sec-fetch-site': 'same-origin' };

/** A hidden field's value in a page's markup. */
export const hidden = (page: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1]?.replace(/&amp;/g, '&');

/** How a test plays a person at a provider's login pages: returns the callback URL, not yet followed. */
export type LoginAt = (browser: Browser, authorizationUrl: string, login: string, appOrigin: string) => Promise<string>;

/**
 * A browser signed in at the page of `origin` as the provider's account `login`, its login pages
 * played by `loginAt` (the test provider's by default).
 */
export async function signedInAt(origin: string, login: string, loginAt: LoginAt = loginAtIssuer): Promise<Browser> {
  const browser = new Browser();
  const start = `${origin}/answers/sign-in?return=%2Fanswers`;
  const toIssuer = await browser.request(start);
  const callback = await loginAt(browser, locationOf(toIssuer, start), login, origin);
  const back = await browser.request(callback);
  if (back.status !== 303) throw new Error(`the sign-in callback answered HTTP ${back.status}: ${await back.text()}`);
  return browser;
}

/**
 * A browser signed in at the page of `origin` through its development sign-in (a service run as
 * `durable-mcp dev` runs it), as the person the form names (`amr`: the methods the sign-in claims,
 * comma-separated, for a question that requires a step-up).
 */
export async function signedInByDevSignIn(
  origin: string,
  person: { subject: string; name: string; groups: string; amr?: string },
): Promise<Browser> {
  const browser = new Browser();
  const inbox = await browser.request(`${origin}/answers`);
  const form = await (await browser.request(locationOf(inbox, `${origin}/answers`))).text();
  const signedIn = await browser.post(
    `${origin}/answers/sign-in`,
    { csrf: hidden(form, 'csrf') ?? '', return: '/answers', ...person },
    SAME_ORIGIN,
  );
  if (signedIn.status !== 303) throw new Error(`the development sign-in answered HTTP ${signedIn.status}`);
  return browser;
}

/** The question's page as `browser` gets it. */
export const questionPage = (browser: Browser, origin: string, id: string) =>
  browser.request(`${origin}/answers/q/${encodeURIComponent(id)}`);

/** Posts the question's form with `fields` (`action`, `content.<field>`), as shown: the page's answer (303 when taken). */
export async function answerOnPage(
  browser: Browser,
  origin: string,
  id: string,
  fields: Record<string, string>,
): Promise<Response> {
  const page = await (await questionPage(browser, origin, id)).text();
  return browser.post(
    `${origin}/answers/q/${encodeURIComponent(id)}`,
    { csrf: hidden(page, 'csrf') ?? '', shown: hidden(page, 'shown') ?? '', ...fields },
    SAME_ORIGIN,
  );
}

/** The id of the question whose message is `message` in the inbox of `browser`, once it waits there. */
export const questionInInbox = (browser: Browser, origin: string, message: string) =>
  until(`the question "${message}" in the inbox`, async () => {
    const inbox = await (await browser.request(`${origin}/answers`)).text();
    const item = inbox.split('<li>').find((entry) => entry.includes(message));
    const id = item && /href="\/answers\/q\/([^"]+)"/.exec(item)?.[1];
    return id ? decodeURIComponent(id) : undefined;
  });
