// The answer page's sign-in against a real OpenID provider (oidc-provider, its dev login pages
// filled in over HTTP): a confidential and a public client, both with PKCE, each on a bare express
// app. Who signs in, and every way in that must stay shut. Needs neither Temporal nor Postgres.
import { principalId } from '../../lib/exchange/principal';
import { Browser, locationOf, loginAtIssuer } from './browser';
import { startSignInStack, type SignInStack, type TestApp } from './sign-in-harness';

const SESSION = 'durable_mcp_answer_session';
const PENDING = 'durable_mcp_answer_sign_in';
const SHORT_TTL_MS = 2_500;

const ACCOUNTS = {
  alice: { name: 'Alice Approver', email: 'alice@example.com', groups: ['approvers', 'finance'] },
  bob: { email: 'bob@example.com', email_verified: true, groups: 'ops' },
  // An email the provider does not vouch for is not shown as theirs, nor taken as a name.
  carl: { email: 'carl@example.com', email_verified: false, groups: 'ops' },
};

let stack: SignInStack;
let confidential: TestApp;
let publicApp: TestApp;

beforeAll(async () => {
  stack = await startSignInStack(
    [
      { clientId: 'answers-confidential', clientSecret: 'a-secret-long-enough-for-the-test', sessionTtlMs: 3_600_000 },
      { clientId: 'answers-public', sessionTtlMs: SHORT_TTL_MS },
    ],
    ACCOUNTS,
  );
  [confidential, publicApp] = stack.apps as [TestApp, TestApp];
}, 60_000);
afterAll(() => stack?.stop());

/** Starts a sign-in at `app` and logs in at the issuer: the callback URL, not yet followed. */
async function toCallback(browser: Browser, app: TestApp, login: string, returnTo = '/answers/q/1?tab=2') {
  const start = `${app.origin}/answers/sign-in?return=${encodeURIComponent(returnTo)}`;
  const started = await browser.request(start);
  expect(started.status).toBe(302);
  const authorization = new URL(locationOf(started, start));
  expect(authorization.origin).toBe(stack.issuer);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  return loginAtIssuer(browser, authorization.href, login, app.origin);
}

async function signIn(app: TestApp, login: string, returnTo?: string) {
  const browser = new Browser();
  const callback = await toCallback(browser, app, login, returnTo);
  const back = await browser.request(callback);
  return { browser, callback, back };
}

async function whoami(browser: Browser, app: TestApp) {
  const response = await browser.request(`${app.origin}/answers/whoami`);
  return (await response.json()) as { answerer: Record<string, unknown> | null; csrf: string | null };
}

describe('answer sign-in', () => {
  it('signs an answerer in through a confidential client: principal id, groups and name', async () => {
    const { browser, back, callback } = await signIn(confidential, 'alice');
    expect(back.status).toBe(303);
    expect(locationOf(back, callback)).toBe(`${confidential.origin}/answers/q/1?tab=2`);
    const cookie = browser.cookie(confidential.origin, SESSION)!;
    expect(cookie.attributes).toEqual(expect.arrayContaining(['Path=/answers', 'HttpOnly', 'SameSite=Lax']));
    expect(browser.cookie(confidential.origin, PENDING)).toBeUndefined();
    const { answerer, csrf } = await whoami(browser, confidential);
    expect(answerer).toEqual({
      id: principalId(stack.issuer, 'alice', undefined),
      issuer: stack.issuer,
      subject: 'alice',
      scopes: [],
      groups: ['approvers', 'finance'],
      name: 'Alice Approver',
    });
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('signs one in through a public client (PKCE alone): a group given as a string, a verified email kept', async () => {
    const { browser, back } = await signIn(publicApp, 'bob');
    expect(back.status).toBe(303);
    const { answerer } = await whoami(browser, publicApp);
    expect(answerer).toMatchObject({ id: `${stack.issuer}|bob`, groups: ['ops'], email: 'bob@example.com' });
    expect(answerer).not.toHaveProperty('name');
    const carl = await signIn(publicApp, 'carl');
    const { answerer: unverified } = await whoami(carl.browser, publicApp);
    expect(unverified).toMatchObject({ id: `${stack.issuer}|carl`, groups: ['ops'] });
    expect(unverified).not.toHaveProperty('name');
    expect(unverified).not.toHaveProperty('email');
  });

  it('refuses a callback whose state is not the pending sign-in’s, and one with no pending sign-in', async () => {
    const browser = new Browser();
    const callback = new URL(await toCallback(browser, confidential, 'alice'));
    callback.searchParams.set('state', 'not-the-state');
    const wrong = await browser.request(callback.href);
    expect(wrong.status).toBe(400);
    expect(browser.cookie(confidential.origin, SESSION)).toBeUndefined();
    const stranger = await new Browser().request(callback.href);
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain('Sign-in refused');
  });

  it('refuses a code used once already, even with the pending sign-in it came for', async () => {
    const browser = new Browser();
    const callback = await toCallback(browser, confidential, 'alice');
    const pending = browser.cookie(confidential.origin, PENDING)!.value;
    expect((await browser.request(callback)).status).toBe(303);
    // The pending cookie was spent: the same browser coming back is refused before the issuer is asked.
    expect((await browser.request(callback)).status).toBe(400);
    // With a copy of it, the issuer itself refuses the code a second time.
    const replay = new Browser();
    replay.setCookieValue(confidential.origin, PENDING, pending);
    const replayed = await replay.request(callback);
    expect(replayed.status).toBe(400);
    expect(confidential.logs.at(-1)).toMatchObject({
      msg: 'answer sign-in refused',
      reason: 'the token endpoint refused the code: invalid_grant',
    });
    expect(replay.cookie(confidential.origin, SESSION)).toBeUndefined();
  });

  it('refuses a session cookie altered by one character, and a pending one', async () => {
    const { browser } = await signIn(confidential, 'alice');
    const value = browser.cookie(confidential.origin, SESSION)!.value;
    const at = value.length - 5;
    const flipped = value.slice(0, at) + (value[at] === 'A' ? 'B' : 'A') + value.slice(at + 1);
    browser.setCookieValue(confidential.origin, SESSION, flipped);
    expect((await whoami(browser, confidential)).answerer).toBeNull();
    browser.setCookieValue(confidential.origin, SESSION, 'made-up');
    expect((await whoami(browser, confidential)).answerer).toBeNull();

    const again = new Browser();
    const callback = await toCallback(again, confidential, 'alice');
    const pending = again.cookie(confidential.origin, PENDING)!.value;
    again.setCookieValue(
      confidential.origin,
      PENDING,
      `${pending.slice(0, -2)}${pending.endsWith('AA') ? 'BB' : 'AA'}`,
    );
    expect((await again.request(callback)).status).toBe(400);
    expect(again.cookie(confidential.origin, SESSION)).toBeUndefined();
  });

  it('ends a session at ANSWER_SESSION_TTL_MS', async () => {
    const { browser } = await signIn(publicApp, 'bob');
    expect((await whoami(browser, publicApp)).answerer).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, SHORT_TTL_MS + 200));
    expect((await whoami(browser, publicApp)).answerer).toBeNull();
  });

  it.each([
    'https://evil.example/answers',
    '//evil.example/answers',
    '/\\evil.example/answers',
    '/admin/exchanges',
    '/answers/../admin',
    'answers/q/1',
  ])('refuses to return to %s', async (target) => {
    const browser = new Browser();
    const response = await browser.request(
      `${confidential.origin}/answers/sign-in?return=${encodeURIComponent(target)}`,
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(browser.cookie(confidential.origin, PENDING)).toBeUndefined();
  });

  it('refuses a cross-site sign-out, and signs out from the page itself', async () => {
    const { browser } = await signIn(confidential, 'alice');
    const { csrf } = await whoami(browser, confidential);
    const signOut = `${confidential.origin}/answers/sign-out`;
    expect((await browser.post(signOut, { csrf: csrf! }, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await browser.post(signOut, { csrf: csrf! }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await browser.post(signOut, {})).status).toBe(403);
    expect((await whoami(browser, confidential)).answerer).not.toBeNull();
    const done = await browser.post(
      signOut,
      { csrf: csrf! },
      { origin: confidential.origin, 'sec-fetch-site': 'same-origin' },
    );
    expect(done.status).toBe(200);
    expect(browser.cookie(confidential.origin, SESSION)).toBeUndefined();
    expect((await whoami(browser, confidential)).answerer).toBeNull();
  });

  it('checks a post’s CSRF token: missing, wrong or another session’s is refused', async () => {
    const { browser } = await signIn(confidential, 'alice');
    const other = (await signIn(confidential, 'alice')).browser;
    const { csrf } = await whoami(browser, confidential);
    const { csrf: othersCsrf } = await whoami(other, confidential);
    const act = `${confidential.origin}/answers/act`;
    expect((await browser.post(act, {})).status).toBe(403);
    expect((await browser.post(act, { csrf: 'x'.repeat(43) })).status).toBe(403);
    expect((await browser.post(act, { csrf: othersCsrf! })).status).toBe(403);
    expect((await new Browser().post(act, { csrf: csrf! })).status).toBe(403);
    expect((await browser.post(act, { csrf: csrf! }, { origin: confidential.origin })).status).toBe(200);
  });

  it('says so when the issuer answers with an error (the answerer declined)', async () => {
    const browser = new Browser();
    await toCallback(browser, confidential, 'alice');
    const response = await browser.request(`${confidential.origin}/answers/callback?error=access_denied&state=x`);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('access was denied');
    expect(browser.cookie(confidential.origin, SESSION)).toBeUndefined();
  });
});
