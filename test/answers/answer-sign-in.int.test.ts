// The answer page's sign-in against a real OpenID provider (oidc-provider, its dev login pages
// filled in over HTTP): a confidential and a public client, both with PKCE, each on a bare express
// app, every app under the same ANSWER_SESSION_KEYS (as deployments that share a ring). Who signs
// in, and every way in that must stay shut: a development sign-in's cookie and another
// deployment's, a cookie over plain http behind a proxy, a session revoked by its epoch, one due
// for refresh. Needs neither Temporal nor Postgres.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { principalId } from '../../lib/exchange/principal';
import { createDevAnswerSignIn } from '../../services/api/src/answers/sign-in/dev-answer-sign-in';
import { Browser, locationOf, loginAtIssuer } from './browser';
import { KEYS, startSignInStack, type SignInStack, type TestApp } from './sign-in-harness';

const SESSION = 'durable_mcp_answer_session';
const PENDING = 'durable_mcp_answer_sign_in';
const SHORT_TTL_MS = 2_500;

const ACCOUNTS = {
  alice: { name: 'Alice Approver', email: 'alice@example.com', groups: ['approvers', 'finance'] },
  bob: { email: 'bob@example.com', email_verified: true, groups: 'ops' },
  // An email the provider does not vouch for is not shown as theirs, nor taken as a name.
  carl: { email: 'carl@example.com', email_verified: false, groups: 'ops' },
};

const PUBLIC_HTTPS = 'https://answers.example';
const REFRESH_MS = 2_000;

let stack: SignInStack;
let confidential: TestApp;
let publicApp: TestApp;
/** ANSWER_PUBLIC_URL https, reached over plain http (a TLS proxy the app was not told to trust). */
let behindProxy: TestApp;
let revocable: TestApp;
let refreshing: TestApp;

beforeAll(async () => {
  stack = await startSignInStack(
    [
      { clientId: 'answers-confidential', clientSecret: 'a-secret-long-enough-for-the-test', sessionTtlMs: 3_600_000 },
      { clientId: 'answers-public', sessionTtlMs: SHORT_TTL_MS },
      { clientId: 'answers-behind-proxy', sessionTtlMs: 3_600_000, publicOrigin: PUBLIC_HTTPS },
      { clientId: 'answers-revocable', sessionTtlMs: 3_600_000 },
      { clientId: 'answers-refreshing', sessionTtlMs: 3_600_000, sessionRefreshMs: REFRESH_MS },
    ],
    ACCOUNTS,
  );
  [confidential, publicApp, behindProxy, revocable, refreshing] = stack.apps as [
    TestApp,
    TestApp,
    TestApp,
    TestApp,
    TestApp,
  ];
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

async function whoami(browser: Browser, app: TestApp, at = app.origin) {
  const response = await browser.request(`${at}/answers/whoami`);
  return (await response.json()) as { answerer: Record<string, unknown> | null; csrf: string | null };
}

describe('answer sign-in', () => {
  it('signs an answerer in through a confidential client: principal id, groups and name', async () => {
    const { browser, back, callback } = await signIn(confidential, 'alice');
    expect(back.status).toBe(303);
    expect(locationOf(back, callback)).toBe(`${confidential.origin}/answers/q/1?tab=2`);
    const cookie = browser.cookie(confidential.origin, SESSION)!;
    expect(cookie.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax']));
    expect(browser.cookie(confidential.origin, PENDING)).toBeUndefined();
    const { answerer, csrf } = await whoami(browser, confidential);
    expect(answerer).toEqual({
      id: principalId(stack.issuer, 'alice', undefined),
      kind: 'person',
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

/**
 * A development sign-in (ANSWER_DEV_SIGN_IN) under the same ANSWER_SESSION_KEYS, told that its
 * public origin is `publicOrigin`: a laptop's, pointed at a deployment it shares keys with. Signs
 * in there as `subject` in `groups` through its form, and returns the session cookie it set and
 * whether it opens there.
 */
async function devSignInCookie(publicOrigin: string, subject: string, groups: string) {
  const dev = createDevAnswerSignIn(
    { publicOrigin, sessionTtlMs: 3_600_000 },
    { keys: KEYS, epoch: '', log: pino({ level: 'silent' }) },
  );
  const app = express();
  app.use('/answers', dev.router);
  app.get('/answers/whoami', (req, res) => res.json({ answerer: dev.answererOf(req) ?? null }));
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  try {
    const address = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = new Browser();
    const form = await (await browser.request(`${address}/answers/sign-in?return=%2Fanswers`)).text();
    const csrf = /name="csrf" value="([^"]*)"/.exec(form)![1]!;
    const posted = await browser.post(
      `${address}/answers/sign-in`,
      { csrf, subject, groups, return: '/answers' },
      { origin: publicOrigin, 'sec-fetch-site': 'same-origin' },
    );
    expect(posted.status).toBe(303);
    const [name, cookie] = [...browser.cookiesOf(address)].find(([n]) => n.endsWith(SESSION))!;
    const { answerer } = (await (await browser.request(`${address}/answers/whoami`)).json()) as {
      answerer: Record<string, unknown> | null;
    };
    return { name, value: cookie.value, opensThere: answerer !== null };
  } finally {
    server.close();
  }
}

describe('sessions bound to what issued them', () => {
  it('refuses a development sign-in’s cookie on an OpenID Connect deployment that shares its keys', async () => {
    const forged = await devSignInCookie(confidential.origin, 'alice', 'approvers,finance');
    expect(forged.opensThere).toBe(true); // a real session where it was made…
    const browser = new Browser();
    browser.setCookieValue(confidential.origin, forged.name, forged.value);
    expect(forged.name).toBe(SESSION);
    expect((await whoami(browser, confidential)).answerer).toBeNull(); // …and none here
    expect((await browser.post(`${confidential.origin}/answers/act`, {}, { origin: confidential.origin })).status).toBe(
      403,
    );
  });

  it('refuses a development sign-in’s cookie made for an https deployment, under its __Host- name', async () => {
    const forged = await devSignInCookie(PUBLIC_HTTPS, 'alice', 'approvers');
    expect(forged.name).toBe(`__Host-${SESSION}`);
    const browser = new Browser();
    browser.setCookieValue(behindProxy.address, forged.name, forged.value);
    expect((await whoami(browser, behindProxy, behindProxy.address)).answerer).toBeNull();
  });

  it('refuses another deployment’s session (another public origin, the same keys and issuer)', async () => {
    const { browser } = await signIn(publicApp, 'bob');
    const theirs = browser.cookie(publicApp.origin, SESSION)!.value;
    expect((await whoami(browser, publicApp)).answerer).not.toBeNull();
    const visitor = new Browser();
    visitor.setCookieValue(confidential.origin, SESSION, theirs);
    expect((await whoami(visitor, confidential)).answerer).toBeNull();
    // Nor does another deployment's sign-in under way finish here.
    const pendingBrowser = new Browser();
    const callback = new URL(await toCallback(pendingBrowser, publicApp, 'bob'));
    const pending = pendingBrowser.cookie(publicApp.origin, PENDING)!.value;
    const replay = new Browser();
    replay.setCookieValue(confidential.origin, PENDING, pending);
    const replayed = await replay.request(`${confidential.origin}/answers/callback${callback.search}`);
    expect(replayed.status).toBe(400);
    expect(replay.cookie(confidential.origin, SESSION)).toBeUndefined();
  });

  it('sets Secure __Host- cookies when ANSWER_PUBLIC_URL is https, though the request came as plain http', async () => {
    const browser = new Browser();
    const start = `${behindProxy.address}/answers/sign-in?return=%2Fanswers%2Fq%2F1`;
    // What a TLS proxy forwards, and that the app does not believe (no TRUST_PROXY).
    const started = await browser.request(start, { headers: { 'x-forwarded-proto': 'https' } });
    expect(started.status).toBe(302);
    const pending = browser.cookie(behindProxy.address, `__Host-${PENDING}`)!;
    expect(pending.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']));
    expect(pending.attributes.some((a) => /^domain=/i.test(a))).toBe(false);
    expect(browser.cookie(behindProxy.address, PENDING)).toBeUndefined();
    // The issuer sends the browser to the public origin; the proxy forwards it to the app over http.
    const callback = new URL(await loginAtIssuer(browser, locationOf(started, start), 'alice', PUBLIC_HTTPS));
    expect(callback.origin).toBe(PUBLIC_HTTPS);
    const back = await browser.request(`${behindProxy.address}${callback.pathname}${callback.search}`, {
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(back.status).toBe(303);
    const session = browser.cookie(behindProxy.address, `__Host-${SESSION}`)!;
    expect(session.attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'Secure', 'SameSite=Lax']));
    expect(browser.cookie(behindProxy.address, SESSION)).toBeUndefined();
    expect((await whoami(browser, behindProxy, behindProxy.address)).answerer).toMatchObject({ subject: 'alice' });
    // The same value under the bare name (what a plain-http response could have set) is no session.
    const bare = new Browser();
    bare.setCookieValue(behindProxy.address, SESSION, session.value);
    expect((await whoami(bare, behindProxy, behindProxy.address)).answerer).toBeNull();
  });

  it('ends every session issued before ANSWER_SESSION_EPOCH changed, and takes new ones', async () => {
    const { browser } = await signIn(revocable, 'alice');
    const { csrf } = await whoami(browser, revocable);
    expect((await whoami(browser, revocable)).answerer).not.toBeNull();
    revocable.restartWithEpoch('after-the-leak');
    expect((await whoami(browser, revocable)).answerer).toBeNull();
    expect(
      (await browser.post(`${revocable.origin}/answers/act`, { csrf: csrf! }, { origin: revocable.origin })).status,
    ).toBe(403);
    // A sign-in under way before the change does not finish after it either.
    const late = new Browser();
    revocable.restartWithEpoch('');
    const callback = await toCallback(late, revocable, 'alice');
    revocable.restartWithEpoch('after-the-leak');
    expect((await late.request(callback)).status).toBe(400);
    // Signing in again under the new epoch works.
    const again = await signIn(revocable, 'alice');
    expect((await whoami(again.browser, revocable)).answerer).toMatchObject({ subject: 'alice' });
  });

  it('sends a session past ANSWER_SESSION_REFRESH_MS through the issuer again, and acts for nobody meanwhile', async () => {
    const { browser } = await signIn(refreshing, 'alice');
    const first = await whoami(browser, refreshing);
    expect(first.answerer).toMatchObject({ groups: ['approvers', 'finance'] });
    await new Promise((resolve) => setTimeout(resolve, REFRESH_MS + 200));
    const page = `${refreshing.origin}/answers/whoami`;
    const due = await browser.request(page);
    expect(due.status).toBe(303);
    expect(locationOf(due, page)).toBe(`${refreshing.origin}/answers/sign-in?return=%2Fanswers%2Fwhoami`);
    // A post with it (a form filled before) finds no answerer and no form token.
    const posted = (await (await browser.post(page, {})).json()) as Record<string, unknown>;
    expect(posted).toEqual({ answerer: null, csrf: null });
    // Through the issuer (its own session still holds), and back with a new session read afresh.
    const start = locationOf(due, page);
    const started = await browser.request(start);
    const callback = await loginAtIssuer(browser, locationOf(started, start), 'alice', refreshing.origin);
    const back = await browser.request(callback);
    expect(back.status).toBe(303);
    expect(locationOf(back, callback)).toBe(page);
    const fresh = await whoami(browser, refreshing);
    expect(fresh.answerer).toMatchObject({ subject: 'alice', groups: ['approvers', 'finance'] });
    expect(fresh.csrf).not.toBe(first.csrf);
    expect(
      refreshing.logs.some((line) => line.msg === 'answer sign-in: session due for refresh, through the issuer again'),
    ).toBe(true);
  });
});
