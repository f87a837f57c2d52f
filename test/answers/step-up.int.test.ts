/**
 * Step-up at the answer page, end to end: the service (real Temporal and Postgres, AUTH_MODE=off,
 * so every caller is the anonymous one) with the page's sign-in at a real OpenID provider
 * (oidc-issuer-child.mjs with `authentication`: its ID tokens carry `auth_time`, `acr` and `amr`,
 * a login with a one-time code is MFA, and it steps up on `acr_values`). A browser (plain fetch
 * with a cookie jar) signs in with a password alone, and a question whose addressing requires MFA
 * (`requireSignIn`) sends it through the provider again when it opens the question and when it
 * answers; an answer from the password-only session is refused `step-up-required`, recorded in the
 * audit and in the signed evidence log with the sign-in's acr, amr and auth_time; a provider that
 * still gives no MFA is told plainly; once signed in with MFA the answer is taken, and the workflow
 * (judging again by the same rules) finishes the call with it. With the development sign-in, the
 * page says what the question needs, and the developer signs in again naming it.
 */
import { randomInt } from 'node:crypto';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { startTestService, type TestService } from '../support/test-service';
import { until } from '../support/until';
import { Browser, locationOf, loginAtIssuer } from './browser';
import { startDevAnsweringService } from './dev-answering-service';
import { MFA_ACR, PASSWORD_ACR, startAnswerIssuer, type AnswerIssuer } from './sign-in-harness';

/**
 * Amounts of this run: the inbox lists every waiting question addressed to the group, those other
 * runs left in the shared Postgres included, so each call is told apart by its own.
 */
const amount = () => randomInt(1_000_000_000);

const PAGE_CLIENT = { clientId: 'answer-page-step-up', clientSecret: 'answer-page-step-up-secret-for-tests' };
const TREASURY = { name: 'Tess Treasurer', groups: ['treasury'] };

/** A transfer a treasurer approves, signed in with MFA (`amr`), or at the MFA level within 5 minutes (`acr`). */
function transferTool(name: string, requireSignIn: { maxAgeS?: number; acr?: string[]; amr?: string[] }) {
  return defineTool({
    tool: { name, inputSchema: { type: 'object', properties: { amount: { type: 'number' } } } },
    run(args, ctx) {
      const approval = inputResponse(ctx.inputResponses, 'approval');
      if (approval.kind === 'elicit') {
        const by = ctx.answeredBy?.approval?.[0]?.principal.subject;
        return { content: [{ type: 'text', text: `${approval.action} ${String(args.amount)} by ${by}` }] };
      }
      return inputRequired({
        inputRequests: {
          approval: elicitFrom(
            { anyOf: [answerer.group('treasury')], requireSignIn },
            {
              message: `Transfer ${String(args.amount)}?`,
              requestedSchema: { type: 'object', properties: {} },
            },
          ),
        },
      });
    },
  });
}
const handlers: HandlerSet = {
  name: 'step-up',
  tools: [
    transferTool('transfer_mfa', { amr: ['mfa'] }),
    transferTool('transfer_level', { maxAgeS: 300, acr: [MFA_ACR] }),
  ],
};

let issuer: AnswerIssuer;
let service: TestService;
let origin = '';
beforeAll(async () => {
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  issuer = await startAnswerIssuer(
    [{ ...PAGE_CLIENT, redirectUri: `${origin}/answers/callback` }],
    { tess: TREASURY },
    undefined,
    { authentication: true },
  );
  service = await startTestService(
    {
      AUTH_MODE: 'off',
      ANSWER_OIDC_ISSUER: issuer.issuer,
      ANSWER_OIDC_CLIENT_ID: PAGE_CLIENT.clientId,
      ANSWER_OIDC_CLIENT_SECRET: PAGE_CLIENT.clientSecret,
      ANSWER_PUBLIC_URL: origin,
      PORT: String(port),
      QUESTION_HOLD_MS: '4000',
      QUESTION_PROGRESS_EVERY_MS: '1000',
    },
    { handlers },
  );
}, 120_000);
afterAll(async () => {
  await service?.close();
  await issuer?.stop();
});

/** The official 2.x client calling `name`: the call, and the client to close. */
async function callTool(name: string, args: Record<string, unknown>) {
  const client = new Client({ name: 'treasury-desk', version: '1.0.0' }, CLIENT_OPTIONS);
  await client.connect(new StreamableHTTPClientTransport(new URL(service.url)));
  const options = { onprogress: () => undefined, resetTimeoutOnProgress: true, timeout: CALL_TIMEOUT_MS };
  return { client, call: client.callTool({ name, arguments: args }, options) };
}

/**
 * A client that takes no input itself, and comes back for a waiting question's outcome (each
 * state-only result is one of its rounds) long enough for a loaded machine.
 */
const CLIENT_OPTIONS = {
  capabilities: {},
  versionNegotiation: { mode: { pin: '2026-07-28' as const } },
  inputRequired: { maxRounds: 100 },
};
/** How long one call may wait for its answer. */
const CALL_TIMEOUT_MS = 120_000;

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;
const hidden = (page: string, name: string) =>
  new RegExp(`name="${name}" value="([^"]*)"`).exec(page)?.[1]?.replace(/&amp;/g, '&');
/** What a browser sends with its own form posts from the page (Referrer-Policy: no-referrer). */
const SAME_ORIGIN = { origin: 'null', 'sec-fetch-site': 'same-origin' };

/** Signs in at the page as `login` through the provider (with `otp`, MFA); the browser. */
async function signIn(login: string, loginFields: Record<string, string> = {}): Promise<Browser> {
  const browser = new Browser();
  const inbox = await browser.request(`${origin}/answers`);
  const start = locationOf(inbox, `${origin}/answers`);
  const started = await browser.request(start);
  const callback = await loginAtIssuer(browser, locationOf(started, start), login, origin, loginFields);
  const back = await browser.request(callback);
  expect(back.status).toBe(303);
  return browser;
}

/** The question whose message is `message` in the browser's inbox at `at`, once it is there: its id. */
const questionIn = (browser: Browser, message: string, at = origin) =>
  until(`the question "${message}" in the inbox`, async () => {
    const page = await (await browser.request(`${at}/answers`)).text();
    const item = page.split('<li').find((li) => li.includes(message));
    return item ? /href="\/answers\/q\/([^"]+)"/.exec(item)?.[1] : undefined;
  });

/** The provider's authorization request a step-up redirect points to. */
function stepUpRequest(response: Response, from: string): URL {
  expect(response.status).toBe(303);
  const url = new URL(locationOf(response, from));
  expect(url.origin).toBe(issuer.issuer);
  return url;
}

/** The decoded payloads of the evidence entries of question `id`'s attempts, in order. */
async function evidenceOf(questionId: string) {
  const { rows } = await service.pool.query<{ jws: string }>(
    `SELECT e.jws FROM evidence_entries e JOIN question_answers a ON a.id = e.answer_id
      WHERE a.question_id = $1 ORDER BY e.seq`,
    [questionId],
  );
  return rows.map(
    ({ jws }) =>
      JSON.parse(Buffer.from(jws.split('.')[1]!, 'base64url').toString('utf8')) as {
        answerer: { subject: string; acr?: string; amr?: string[]; authTime?: string };
        decision: { outcome: string; refusal?: string };
      },
  );
}

describe('step-up for a question that requires MFA', () => {
  it(
    'sends a password-only sign-in through the provider again, refuses and records its answer, says when the provider gives no MFA, and takes the answer with MFA',
    async () => {
      const sum = amount();
      const { client, call } = await callTool('transfer_mfa', { amount: sum });
      const browser = await signIn('tess');
      const id = await questionIn(browser, `Transfer ${sum}?`);
      const questionUrl = `${origin}/answers/q/${id}`;

      // Opening the question: through the provider again, made to log in anew (methods have no parameter).
      const opened = stepUpRequest(await browser.request(questionUrl), questionUrl);
      expect(opened.searchParams.get('prompt')).toBe('login');
      expect(opened.searchParams.get('acr_values')).toBeNull();

      // Answering from the same session (a form shown before, or a post made by hand): refused, recorded, stepped up.
      const inbox = await (await browser.request(`${origin}/answers`)).text();
      const { rows } = await service.pool.query<{ shown_digest: string }>(
        'SELECT shown_digest FROM questions WHERE id = $1',
        [id],
      );
      const posted = await browser.post(
        questionUrl,
        { csrf: hidden(inbox, 'csrf')!, shown: rows[0]!.shown_digest, action: 'accept' },
        SAME_ORIGIN,
      );
      const afterPost = stepUpRequest(posted, questionUrl);
      const { rows: attempts } = await service.pool.query<{ taken: boolean; refusal: string | null }>(
        'SELECT taken, refusal FROM question_answers WHERE question_id = $1 ORDER BY at',
        [id],
      );
      expect(attempts).toEqual([{ taken: false, refusal: 'step-up-required' }]);
      const [refused] = await evidenceOf(id);
      expect(refused!.decision).toMatchObject({ outcome: 'refused', refusal: 'step-up-required' });
      expect(refused!.answerer).toMatchObject({ subject: 'tess', acr: PASSWORD_ACR, amr: ['pwd'] });
      expect(Date.parse(refused!.answerer.authTime!)).toBeGreaterThan(Date.now() - 120_000);

      // The provider signs Tess in again with a password alone: the page says so, and returns nowhere.
      const weak = await browser.request(await loginAtIssuer(browser, afterPost.href, 'tess', origin));
      expect(weak.status).toBe(403);
      const told = await weak.text();
      expect(told).toContain('Your sign-in is not enough for this question');
      expect(told).toContain(
        'This question needs a sign-in using multi-factor authentication (MFA). You signed in again, but your sign-in did not use multi-factor authentication (MFA), so you cannot answer it.',
      );
      expect(told).toContain(`<a href="/answers/q/${id}">Try again</a>`);

      // With a one-time code: back to the question, whose form now shows, and the answer is taken.
      const again = stepUpRequest(await browser.request(questionUrl), questionUrl);
      const strong = await browser.request(await loginAtIssuer(browser, again.href, 'tess', origin, { otp: '123456' }));
      expect(strong.status).toBe(303);
      expect(locationOf(strong, origin)).toBe(questionUrl);
      const page = await browser.request(questionUrl);
      expect(page.status).toBe(200);
      const form = await page.text();
      expect(form).toContain('This question needs a sign-in using multi-factor authentication (MFA).');
      const answered = await browser.post(
        questionUrl,
        { csrf: hidden(form, 'csrf')!, shown: hidden(form, 'shown')!, action: 'accept' },
        SAME_ORIGIN,
      );
      expect(answered.status).toBe(303);
      expect(locationOf(answered, questionUrl)).toBe(questionUrl);

      expect(textOf(await call)).toBe(`accept ${sum} by tess`);
      const entries = await evidenceOf(id);
      expect(entries.map((e) => e.decision.outcome)).toEqual(['refused', 'taken']);
      expect(entries[1]!.answerer).toMatchObject({ subject: 'tess', acr: MFA_ACR, amr: ['pwd', 'otp', 'mfa'] });
      await client.close();
    },
    CALL_TIMEOUT_MS + 30_000,
  );

  it(
    'asks the provider for the acr and max_age a question names, which steps up on them',
    async () => {
      const sum = amount();
      const { client, call } = await callTool('transfer_level', { amount: sum });
      const browser = await signIn('tess');
      const id = await questionIn(browser, `Transfer ${sum}?`);
      const questionUrl = `${origin}/answers/q/${id}`;

      const opened = stepUpRequest(await browser.request(questionUrl), questionUrl);
      expect(opened.searchParams.get('acr_values')).toBe(MFA_ACR);
      expect(opened.searchParams.get('max_age')).toBe('300');
      expect(opened.searchParams.get('prompt')).toBeNull();
      // The provider's session is a password's: the acr asked for makes it log Tess in again, with a code.
      const back = await browser.request(await loginAtIssuer(browser, opened.href, 'tess', origin, { otp: '654321' }));
      expect(locationOf(back, origin)).toBe(questionUrl);
      const form = await (await browser.request(questionUrl)).text();
      expect(form).toContain(
        `This question needs a sign-in within the last 5 minutes, at the authentication level “${MFA_ACR}”.`,
      );
      const answered = await browser.post(
        questionUrl,
        { csrf: hidden(form, 'csrf')!, shown: hidden(form, 'shown')!, action: 'decline' },
        SAME_ORIGIN,
      );
      expect(answered.status).toBe(303);
      expect(textOf(await call)).toBe(`decline ${sum} by tess`);
      const [taken] = await evidenceOf(id);
      expect(taken!.decision.outcome).toBe('taken');
      expect(taken!.answerer.acr).toBe(MFA_ACR);
      await client.close();
    },
    CALL_TIMEOUT_MS + 30_000,
  );
});

describe('step-up with the development sign-in', () => {
  let dev: TestService;
  let devOrigin = '';
  beforeAll(async () => {
    ({ service: dev, origin: devOrigin } = await startDevAnsweringService(handlers, {
      QUESTION_HOLD_MS: '4000',
      QUESTION_PROGRESS_EVERY_MS: '1000',
    }));
  }, 120_000);
  afterAll(() => dev?.close());

  /** Signs in through the development form as `fields` say; the browser. */
  async function devSignIn(browser: Browser, fields: Record<string, string>, returnTo = '/answers') {
    const formUrl = `${devOrigin}/answers/sign-in?return=${encodeURIComponent(returnTo)}`;
    const form = await (await browser.request(formUrl)).text();
    const posted = await browser.post(
      `${devOrigin}/answers/sign-in`,
      { csrf: hidden(form, 'csrf')!, return: returnTo, ...fields },
      SAME_ORIGIN,
    );
    expect(posted.status).toBe(303);
    return locationOf(posted, devOrigin);
  }

  it(
    'says what the question needs, and takes the answer once the developer signs in with it',
    async () => {
      const sum = amount();
      const client = new Client({ name: 'treasury-desk', version: '1.0.0' }, CLIENT_OPTIONS);
      await client.connect(new StreamableHTTPClientTransport(new URL(dev.url)));
      const call = client.callTool(
        { name: 'transfer_mfa', arguments: { amount: sum } },
        { onprogress: () => undefined, resetTimeoutOnProgress: true, timeout: CALL_TIMEOUT_MS },
      );
      const browser = new Browser();
      await devSignIn(browser, { subject: 'tess', groups: 'treasury' });
      const id = await questionIn(browser, `Transfer ${sum}?`, devOrigin);
      const questionPath = `/answers/q/${id}`;
      const opened = await browser.request(`${devOrigin}${questionPath}`);
      expect(opened.status).toBe(403);
      const told = await opened.text();
      expect(told).toContain('This question needs a sign-in using multi-factor authentication (MFA)');
      expect(told).toContain(`href="/answers/sign-in?return=${encodeURIComponent(questionPath)}"`);

      expect(await devSignIn(browser, { subject: 'tess', groups: 'treasury', amr: 'pwd, mfa' }, questionPath)).toBe(
        `${devOrigin}${questionPath}`,
      );
      const form = await (await browser.request(`${devOrigin}${questionPath}`)).text();
      const answered = await browser.post(
        `${devOrigin}${questionPath}`,
        { csrf: hidden(form, 'csrf')!, shown: hidden(form, 'shown')!, action: 'accept' },
        SAME_ORIGIN,
      );
      expect(answered.status).toBe(303);
      expect(textOf(await call)).toBe(`accept ${sum} by tess`);
      await client.close();
    },
    CALL_TIMEOUT_MS + 30_000,
  );
});
