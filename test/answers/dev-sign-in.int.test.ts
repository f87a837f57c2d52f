/**
 * The answer page's development sign-in end to end, as `npm run dev` runs it: AUTH_MODE=off (every
 * caller is the one anonymous principal) and ANSWER_DEV_SIGN_IN=true, with a real Temporal and
 * Postgres and the official 2.x client. The client calls the demo `refund_order`, whose question
 * goes to the group `refund-approvers` and never to its caller; a browser (plain fetch with a
 * cookie jar) signs in on the page as a member of that group, finds the question in the inbox and
 * accepts it, and the client gets the refund naming the approver. Signed in as `anonymous`, the
 * browser is the caller itself, so a question addressed to the caller is theirs to answer (and
 * anyone else is told it is not theirs, and nothing of it). A
 * cross-site post of the sign-in is refused, and the variable is refused at start with callers
 * authenticated (AUTH_MODE=oauth).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';
import { DEV_SIGN_IN_ISSUER } from '../../lib/auth/dev-answerer';
import { principalId } from '../../lib/exchange/principal';
import { projectRoot } from '../../lib/paths';
import { refundOrder } from '../../built-in-handlers/demo/refund-order';
import { stackProcessEnv } from '../support/service-processes';
import type { TestService } from '../support/test-service';
import { startDevAnsweringService } from './dev-answering-service';
import { until } from '../support/until';
import { Browser, locationOf } from './browser';

const SESSION = 'durable_mcp_answer_session';
const FORM = 'durable_mcp_answer_dev_sign_in';
const BANNER = 'Anyone can sign in here as anyone';

/** A question to the caller themself: with AUTH_MODE=off, whoever signs in as `anonymous`. */
const confirmAsCaller = defineTool({
  tool: { name: 'confirm_as_caller', inputSchema: { type: 'object', properties: { what: { type: 'string' } } } },
  run(args, ctx) {
    const confirmed = inputResponse(ctx.inputResponses, 'confirm');
    if (confirmed.kind === 'elicit') {
      const by = ctx.answeredBy?.confirm?.[0]?.principal.id;
      return { content: [{ type: 'text', text: `${confirmed.action} ${String(args.what)} by ${by}` }] };
    }
    return inputRequired({
      inputRequests: {
        confirm: elicitFrom(
          { anyOf: [answerer.caller()] },
          { message: `Confirm ${String(args.what)}?`, requestedSchema: { type: 'object', properties: {} } },
        ),
      },
    });
  },
});
const handlers: HandlerSet = { name: 'dev-sign-in', tools: [refundOrder, confirmAsCaller] };

let service: TestService;
let origin = '';
beforeAll(async () => {
  ({ service, origin } = await startDevAnsweringService(handlers, {
    QUESTION_HOLD_MS: '4000',
    QUESTION_PROGRESS_EVERY_MS: '1000',
  }));
}, 120_000);
afterAll(async () => {
  await service?.close();
});

/** The official 2.x client (no capabilities: nothing is asked of it) calling `name`; the call and the client. */
async function callTool(name: string, args: Record<string, unknown>) {
  const client = new Client(
    { name: 'dev-desk', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(service.url)));
  const options = { onprogress: () => undefined, resetTimeoutOnProgress: true, timeout: 60_000 };
  return { client, call: client.callTool({ name, arguments: args }, options) };
}

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;
const hidden = (page: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1]?.replace(/&amp;/g, '&');
/** What a browser sends with its own form posts from the page (Referrer-Policy: no-referrer). */
const SAME_ORIGIN = { origin: 'null', 'sec-fetch-site': 'same-origin' };

/** Opens the form as a browser does from a signed-out inbox: the form page and its token. */
async function openForm(browser: Browser): Promise<{ page: string; token: string; returnTo: string }> {
  const inbox = await browser.request(`${origin}/answers`);
  expect(inbox.status).toBe(303);
  const formUrl = locationOf(inbox, `${origin}/answers`);
  expect(formUrl).toBe(`${origin}/answers/sign-in?return=%2Fanswers`);
  const shown = await browser.request(formUrl);
  expect(shown.status).toBe(200);
  const page = await shown.text();
  return { page, token: hidden(page, 'csrf')!, returnTo: hidden(page, 'return')! };
}

/** Posts the sign-in form from the page, with the token it was shown. */
const postSignIn = (browser: Browser, token: string, fields: Record<string, string>) =>
  browser.post(`${origin}/answers/sign-in`, { csrf: token, return: '/answers', ...fields }, SAME_ORIGIN);

async function signIn(fields: Record<string, string>): Promise<Browser> {
  const browser = new Browser();
  const posted = await postSignIn(browser, (await openForm(browser)).token, fields);
  expect(posted.status).toBe(303);
  expect(locationOf(posted, origin)).toBe(`${origin}/answers`);
  return browser;
}

/** The first question the browser's inbox lists, once it does: its id. */
const questionIn = (browser: Browser) =>
  until('a question in the inbox', async () => {
    const page = await (await browser.request(`${origin}/answers`)).text();
    return /href="\/answers\/q\/([^"]+)"/.exec(page)?.[1];
  });

/** Answers question `id` from its page as the signed-in browser; the page it was shown first. */
async function answerOnPage(browser: Browser, id: string, fields: Record<string, string>): Promise<string> {
  const page = await (await browser.request(`${origin}/answers/q/${id}`)).text();
  const answered = await browser.post(
    `${origin}/answers/q/${id}`,
    { csrf: hidden(page, 'csrf')!, shown: hidden(page, 'shown')!, ...fields },
    SAME_ORIGIN,
  );
  expect(answered.status).toBe(303);
  return page;
}

describe('the development sign-in', () => {
  it('lets a member of the addressed group answer refund_order on the page, and the caller gets the refund', async () => {
    const { client, call } = await callTool('refund_order', { order: 'A-7', amount: 12, reason: 'arrived broken' });

    const browser = new Browser();
    const { page: form } = await openForm(browser);
    expect(form).toContain(BANNER);
    expect(form).toContain('<form method="post" action="/answers/sign-in">');
    expect(browser.cookie(origin, FORM)?.attributes).toEqual(
      expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax']),
    );
    // A field out of bounds is the form again, with what was typed.
    const refused = await postSignIn(browser, hidden(form, 'csrf')!, { subject: '', groups: 'refund-approvers' });
    expect(refused.status).toBe(422);
    const again = await refused.text();
    expect(again).toContain('Type who you are signing in as.');
    expect(again).toContain('value="refund-approvers"');
    const rita = { subject: 'rita', name: 'Rita Approver', groups: 'support, refund-approvers' };
    const signedIn = await postSignIn(browser, hidden(again, 'csrf')!, rita);
    expect(signedIn.status).toBe(303);
    expect(browser.cookie(origin, SESSION)).toBeDefined();
    expect(browser.cookie(origin, FORM)).toBeUndefined(); // spent

    const id = await questionIn(browser);
    const inbox = await (await browser.request(`${origin}/answers`)).text();
    expect(inbox).toContain(BANNER);
    expect(inbox).toContain('Signed in as Rita Approver');
    const page = await answerOnPage(browser, id, { action: 'accept', 'content.note': 'Sorry about that' });
    expect(page).toContain(BANNER);
    expect(page).toContain('Refund 12 on order A-7 for anonymous?');

    expect(textOf(await call)).toBe('Refunded 12 on order A-7, approved by Rita Approver. Note: Sorry about that');
    const { rows } = await service.pool.query<{ answerer_id: string; via: string; taken: boolean }>(
      'SELECT answerer_id, via, taken FROM question_answers WHERE question_id = $1',
      [id],
    );
    expect(rows).toEqual([
      { answerer_id: principalId(DEV_SIGN_IN_ISSUER, 'rita', undefined), via: 'page', taken: true },
    ]);

    // Sign-out works as with OpenID Connect: the session ends, and the inbox asks for a sign-in again.
    const signOut = await browser.post(`${origin}/answers/sign-out`, { csrf: hidden(inbox, 'csrf')! }, SAME_ORIGIN);
    expect(signOut.status).toBe(200);
    expect(await signOut.text()).toContain(BANNER);
    expect(browser.cookie(origin, SESSION)).toBeUndefined();
    expect((await browser.request(`${origin}/answers`)).status).toBe(303);
    await client.close();
  });

  it('signs in as the anonymous caller itself with the subject anonymous, who may answer a question to the caller', async () => {
    const { client, call } = await callTool('confirm_as_caller', { what: 'the deploy' });
    // Someone else, even in every group, is not the caller.
    const someone = await signIn({ subject: 'sam', groups: 'refund-approvers' });
    const browser = await signIn({ subject: 'anonymous' });
    const id = await questionIn(browser);
    const foreign = await someone.request(`${origin}/answers/q/${id}`);
    expect(foreign.status).toBe(403);
    expect(await foreign.text()).not.toContain('the deploy');
    await answerOnPage(browser, id, { action: 'accept' });
    expect(textOf(await call)).toBe('accept the deploy by anonymous');
    await client.close();
  });

  it('refuses a cross-site post of the sign-in, and one without the form it was shown', async () => {
    const browser = new Browser();
    const { token, returnTo } = await openForm(browser);
    const fields = { csrf: token, return: returnTo, subject: 'mallory', groups: 'refund-approvers' };
    const fromElsewhere = await browser.post(`${origin}/answers/sign-in`, fields, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(fromElsewhere.status).toBe(403);
    expect(await fromElsewhere.text()).toContain(BANNER);
    const crossSite = await browser.post(`${origin}/answers/sign-in`, fields, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    // A cross-site form post carries no SameSite=Lax cookie: without it, the token alone is nothing.
    const stranger = new Browser();
    expect((await stranger.post(`${origin}/answers/sign-in`, fields, SAME_ORIGIN)).status).toBe(403);
    expect(browser.cookie(origin, SESSION)).toBeUndefined();
    expect(stranger.cookie(origin, SESSION)).toBeUndefined();
    // The same form, posted from the page itself, signs in.
    expect((await browser.post(`${origin}/answers/sign-in`, fields, SAME_ORIGIN)).status).toBe(303);
  });

  it('is refused at start, in one line, when callers are authenticated (AUTH_MODE=oauth)', () => {
    const started = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(projectRoot(), 'cli/start/api-main.ts')],
      {
        cwd: projectRoot(),
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          ...stackProcessEnv({
            AUTH_MODE: 'oauth',
            MCP_RESOURCE_URL: 'https://mcp.example.com/mcp',
            OAUTH_ISSUERS: 'https://as.example.com',
            ANSWER_DEV_SIGN_IN: 'true',
            ANSWER_PUBLIC_URL: 'http://127.0.0.1:3000',
            PORT: '0',
          }),
        },
      },
    );
    expect(started.status).toBe(78);
    expect(started.stderr).toContain(
      'ANSWER_DEV_SIGN_IN is malformed: only with AUTH_MODE=off (AUTH_MODE is oauth); anyone can sign in as anyone there, so it is for local development only',
    );
    expect(started.stdout).not.toContain('API listening');
  });
});
