/**
 * The answer page in a real browser (Debian's Chromium, driven by puppeteer-core), end to end: the
 * service with real bearer tokens and the answer page signed in at the same real OpenID provider
 * (oauth-stack, its login form filled in by the browser); a tool asks a
 * question of a group, excluding its caller; the caller's official 2.x client waits while the
 * approver signs in, finds the question in the inbox, is told what is wrong with a first answer,
 * then accepts; the caller gets the result naming the approver, the page says who answered, and
 * the audit says it came through the page. Signed out, the question's URL shows only the way to
 * sign in; signed in outside the group, it is not found; a post without the CSRF token is refused.
 *
 * CHROMIUM_PATH names the browser (default /usr/bin/chromium). Without one, and outside CI, the
 * test is skipped, saying so; in CI (`CI` set) it must run. UPDATE_SCREENSHOTS=1 writes the
 * operator's guide's pictures of the page, at a phone's width, to docs/images/answer-page-*.png.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import puppeteer, { type Browser, type BrowserContext, type HTTPResponse, type Page } from 'puppeteer-core';
import { answerer, defineTool, elicitFrom, inputRequired, inputResponse, type HandlerSet } from '@durable-mcp/handlers';
import { projectRoot } from '../../lib/paths';
import type { OAuthStack } from '../support/oauth-stack';
import { until } from '../support/until';
import { EVIDENCE_JWKS_PATH } from '../../lib/evidence/evidence-export';
import { TEST_ADMIN_TOKEN } from '../support/admin-client';
import { startAnsweringStack, type AnsweringStack } from './answering-stack';
import { changeOneByte, evidence } from './evidence-cli';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const IMAGES_DIR = path.join(projectRoot(), 'docs', 'images');
const PHONE = { width: 390, height: 844, deviceScaleFactor: 2 };

const ACCOUNTS = {
  approver: {
    name: 'Rita Approver',
    email: 'rita@example.com',
    email_verified: true,
    groups: ['refund-approvers', 'finance'],
  },
  outsider: { name: 'Otto Outsider', email: 'otto@example.com', groups: ['support'] },
};

const REFUND_FORM = {
  type: 'object',
  properties: {
    note: { type: 'string', title: 'Note to the customer', maxLength: 20 },
    amount: { type: 'number', title: 'Amount to refund (EUR)', minimum: 1 },
    notify: { type: 'boolean', title: 'Email the customer' },
    reason: {
      type: 'string',
      title: 'Reason',
      oneOf: [
        { const: 'damaged', title: 'Arrived damaged' },
        { const: 'late', title: 'Arrived late' },
        { const: 'other', title: 'Something else' },
      ],
    },
  },
  required: ['amount', 'reason'] as string[],
} as const;

/** An argument whose right-to-left override shows "receiptexe.pdf", and one of 5,000 characters. */
const HOSTILE_RECEIPT = 'receipt\u202Efdp.exe';
const LONG_HISTORY = `${'y'.repeat(4_980)} END-OF-HISTORY`;

const refund = defineTool({
  tool: { name: 'refund_page', inputSchema: { type: 'object', properties: { order: { type: 'string' } } } },
  run(args, ctx) {
    const approval = inputResponse(ctx.inputResponses, 'approval');
    if (approval.kind === 'elicit') {
      const by = ctx.answeredBy?.approval?.map((a) => `${a.principal.name ?? a.principal.subject} via ${a.via}`);
      const content = JSON.stringify(approval.content ?? {});
      return { content: [{ type: 'text', text: `${approval.action} for ${String(args.order)} by ${by}: ${content}` }] };
    }
    return inputRequired({
      inputRequests: {
        approval: elicitFrom(
          { anyOf: [answerer.group('refund-approvers')], excludeCaller: true },
          {
            message: `Refund order ${String(args.order)}? The customer says the box arrived crushed.`,
            requestedSchema: REFUND_FORM,
          },
        ),
      },
    });
  },
});
const handlers: HandlerSet = { name: 'refund-page', tools: [refund] };

let answering: AnsweringStack | undefined;
let issuer = '';
let stack: OAuthStack | undefined;
let browser: Browser | undefined;
let origin = '';

if (!HAVE_CHROMIUM && !process.env.CI)
  console.warn(
    `answer-page.browser.int.test.ts skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
const describeWithBrowser = HAVE_CHROMIUM || process.env.CI ? describe : describe.skip;

beforeAll(async () => {
  if (!HAVE_CHROMIUM && !process.env.CI) return;
  answering = await startAnsweringStack(
    handlers,
    { QUESTION_HOLD_MS: '4000', ADMIN_TOKEN: TEST_ADMIN_TOKEN },
    ACCOUNTS,
  );
  ({ stack, issuer, origin } = answering);
  browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await answering?.close();
});

/** A fresh browser profile (no cookies) with one page at a phone's width. */
async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser!.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport(PHONE);
  return { context, page };
}

/** Fills in the issuer's login (any password) and consent pages, until the browser is back at the service. */
async function signInAtIssuer(page: Page, login: string): Promise<void> {
  for (let step = 0; step < 5 && new URL(page.url()).origin === issuer; step++) {
    const prompt = await page.$eval('input[name=prompt]', (input) => (input as unknown as { value: string }).value);
    if (prompt === 'login') {
      await page.type('input[name=login]', login);
      await page.type('input[name=password]', 'any');
    }
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
  }
  expect(new URL(page.url()).origin).toBe(origin);
}

/** A page as text a person reads, and as the markup sent. */
const textOf = (page: Page) => page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);

async function screenshot(page: Page, name: string): Promise<void> {
  if (SCREENSHOTS) await page.screenshot({ path: path.join(IMAGES_DIR, `answer-page-${name}.png`), fullPage: true });
}

async function caller() {
  const client = new Client(
    { name: 'desk', version: '1.0.0' },
    { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const authorization = await stack!.bearer('alice');
  await client.connect(
    new StreamableHTTPClientTransport(new URL(stack!.service.url), { requestInit: { headers: { authorization } } }),
  );
  return client;
}

const expectPageHeaders = (response: HTTPResponse | null) =>
  expect(response?.headers()).toMatchObject({
    'content-security-policy':
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });

/** Clicks the form's Accept button and waits for the page it leads to. */
async function accept(page: Page): Promise<HTTPResponse | null> {
  const [response] = await Promise.all([page.waitForNavigation(), page.click('button[value=accept]')]);
  return response;
}

describeWithBrowser('the answer page in Chromium', () => {
  it('signs the approver in, shows the question, refuses an invalid answer, takes a valid one, and the caller gets it', async () => {
    const alice = await caller();
    const started = new Date();
    const call = alice.callTool(
      { name: 'refund_page', arguments: { order: 'R-7', receipt: HOSTILE_RECEIPT, history: LONG_HISTORY } },
      { onprogress: () => undefined, resetTimeoutOnProgress: true, timeout: 90_000 },
    );
    call.catch(() => undefined); // awaited below; a failure before then must not go unhandled
    const questionId = await until('the question on R-7', async () => {
      const { rows } = await stack!.service.pool.query<{ id: string }>(
        // This run's (a database kept from an earlier run has its questions too).
        `SELECT id FROM questions WHERE target = 'refund_page' AND arguments->>'order' = 'R-7' AND asked_at >= $1`,
        [started],
      );
      return rows[0]?.id;
    });
    const questionUrl = `${origin}/answers/q/${encodeURIComponent(questionId)}`;

    // Signed out: the question's URL is only the way to sign in; nothing of the question is in the HTML.
    const stranger = await freshPage();
    const signedOut = await stranger.page.goto(questionUrl);
    expectPageHeaders(signedOut);
    const strangerHtml = await stranger.page.content();
    expect(strangerHtml).toContain('Sign in to answer');
    expect(strangerHtml).toContain(`/answers/sign-in?return=${encodeURIComponent(`/answers/q/${questionId}`)}`);
    for (const secret of ['refund_page', 'R-7', 'crushed', 'Amount', 'alice'])
      expect(strangerHtml).not.toContain(secret);

    // Signed in outside the group: the question is not theirs, and nothing of what it asks is shown.
    await stranger.page.goto(`${origin}/answers`);
    await signInAtIssuer(stranger.page, 'outsider');
    expect(await textOf(stranger.page)).toContain('Nothing is waiting for you.');
    const foreign = await stranger.page.goto(questionUrl);
    expect(foreign?.status()).toBe(403);
    expectPageHeaders(foreign);
    const foreignHtml = await stranger.page.content();
    expect(foreignHtml).toContain('Not addressed to you');
    for (const secret of ['refund_page', 'R-7', 'crushed', 'Amount', 'alice', 'yyyy'])
      expect(foreignHtml).not.toContain(secret);
    expect(await stranger.page.$('button[value=accept]')).toBeNull();
    const missing = await stranger.page.goto(`${origin}/answers/q/no-such-question`);
    expect(missing?.status()).toBe(404);
    expect(await stranger.page.content()).toContain('No such question');
    await stranger.context.close();

    // The approver opens the inbox, is sent to the issuer's login, and comes back to it.
    const { context, page } = await freshPage();
    await page.goto(`${origin}/answers`);
    expect(new URL(page.url()).origin).toBe(issuer);
    await signInAtIssuer(page, 'approver');
    expect(new URL(page.url()).pathname).toBe('/answers');
    const inbox = await textOf(page);
    expect(inbox).toContain('Signed in as Rita Approver');
    expect(inbox).toContain('refund_page');
    expect(inbox).toContain('Refund order R-7?');
    await screenshot(page, 'inbox');

    await Promise.all([page.waitForNavigation(), page.click(`a[href="/answers/q/${questionId}"]`)]);
    expect(page.url()).toBe(questionUrl);
    const shownText = await textOf(page);
    expect(shownText).toContain('The customer says the box arrived crushed.');
    // What a person reads: the override as a marker, never applied; the long argument folded, whole once opened.
    expect(shownText).toContain('"receipt⟨U+202E⟩fdp.exe"');
    expect(shownText).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);
    expect(shownText).toContain('4,997 characters: open to read it whole');
    expect(shownText).not.toContain('END-OF-HISTORY');
    await page.click('details.value summary');
    expect(await textOf(page)).toContain(`"${LONG_HISTORY}"`);
    // The form's fields in the order the handler wrote them.
    const fieldOrder = await page.$$eval('[name^="content."]', (inputs) =>
      inputs.map((input) => input.getAttribute('name')),
    );
    expect([...new Set(fieldOrder)]).toEqual(['content.note', 'content.amount', 'content.notify', 'content.reason']);

    // A post without the CSRF token, with the approver's own session cookie: refused, nothing recorded.
    const cookies = (await context.cookies())
      .filter((c) => c.domain === '127.0.0.1')
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    const shown = await page.$eval('input[name=shown]', (input) => (input as unknown as { value: string }).value);
    const forged = await fetch(questionUrl, {
      method: 'POST',
      headers: { cookie: cookies, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'accept', shown, 'content.amount': '5', 'content.reason': 'other' }),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('This answer did not come from the answer page.');

    // A first answer the browser would stop (its own checks off, as an old browser's): the server says why.
    await page.$eval('form[method=post][action^="/answers/q/"]', (form) => {
      (form as unknown as { noValidate: boolean }).noValidate = true;
    });
    await page.type('input[name="content.note"]', 'Sorry!');
    await page.type('input[name="content.amount"]', '0');
    await page.click('input[name="content.reason"][value="damaged"]');
    const refused = await accept(page);
    expect(refused?.status()).toBe(422);
    expectPageHeaders(refused);
    const withError = await textOf(page);
    expect(withError).toContain('The answer was not taken.');
    expect(await page.$eval('input[name="content.amount"]', (input) => input.getAttribute('aria-invalid'))).toBe(
      'true',
    );
    expect(
      await page.$eval('input[name="content.amount"]', (input) => (input as unknown as { value: string }).value),
    ).toBe('0');
    expect(
      await page.$eval('input[name="content.note"]', (input) => (input as unknown as { value: string }).value),
    ).toBe('Sorry!');
    await screenshot(page, 'question-error');

    // The answer as a person gives it.
    const amount = await page.$('input[name="content.amount"]');
    await amount!.click({ count: 3 });
    await amount!.type('25.5');
    await page.click('input[name="content.notify"]');
    const taken = await accept(page);
    expect(taken?.status()).toBe(200);
    expect(page.url()).toBe(questionUrl);

    const result = (await call) as { content: Array<{ text: string }> };
    expect(result.content[0]!.text).toBe(
      'accept for R-7 by Rita Approver via page: {"note":"Sorry!","amount":25.5,"notify":true,"reason":"damaged"}',
    );
    await page.reload();
    const answered = await textOf(page);
    expect(answered).toContain(`Accepted by approver of ${issuer} (“Rita Approver”, rita@example.com) at `);
    expect(answered).toMatch(/ at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, on the answer page\./);
    for (const said of [
      'Note to the customer',
      'Sorry!',
      'Amount to refund (EUR)',
      '25.5',
      'Email the customer',
      'Yes',
    ])
      expect(answered).toContain(said);
    expect(answered).toContain('Arrived damaged');
    expect(await page.$('button[value=accept]')).toBeNull();
    await screenshot(page, 'answered');

    const { rows } = await stack!.service.pool.query<{
      answerer_id: string;
      via: string;
      taken: boolean;
      refusal: string | null;
    }>(`SELECT answerer_id, via, taken, refusal FROM question_answers WHERE question_id = $1 ORDER BY at`, [
      questionId,
    ]);
    expect(rows).toEqual([{ answerer_id: `${issuer}|approver`, via: 'page', taken: true, refusal: null }]);

    // The caller's result names the approval's evidence entry; the exchange's export verifies with
    // the published keys alone, and fails, naming the entry, once one byte of it is changed.
    const approvals = (result as { _meta?: Record<string, unknown> })._meta?.['io.durable-mcp/approvals'] as Array<{
      evidence: string;
    }>;
    expect(approvals).toEqual([
      expect.objectContaining({ key: 'approval', by: `${issuer}|approver`, via: 'page', action: 'accept' }),
    ]);
    const scratch = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-approval-'));
    const exported = path.join(scratch, 'approval.jsonl');
    const exchangeId = questionId.split('.')[0]!;
    const written = await evidence(
      'export',
      '--exchange',
      exchangeId,
      '--out',
      exported,
      '--url',
      origin,
      '--token',
      TEST_ADMIN_TOKEN,
    );
    expect(written.code).toBe(0);
    expect((JSON.parse(readFileSync(exported, 'utf8').split('\n')[1]!) as { hash: string }).hash).toBe(
      approvals[0]!.evidence,
    );
    const jwks = `${origin}${EVIDENCE_JWKS_PATH}`;
    const verified = await evidence('verify', exported, '--jwks', jwks);
    expect(verified).toMatchObject({ code: 0, err: '' });
    expect(verified.out).toContain('accept taken, deciding by approver (“Rita Approver”) via page');
    const tampered = path.join(scratch, 'tampered.jsonl');
    const seq = changeOneByte(exported, 1, tampered);
    const notVerified = await evidence('verify', tampered, '--jwks', jwks);
    expect(notVerified.code).toBe(7);
    expect(notVerified.err).toContain(`line 2 (entry #${seq}): its signature does not verify`);
    await context.close();
    await alice.close();
  }, 120_000);
});
