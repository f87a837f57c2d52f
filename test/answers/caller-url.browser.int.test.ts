/**
 * A question addressed to the caller, answered on another device in a real browser (Debian's
 * Chromium, at a phone's width), end to end: the demo `confirm_transfer` asks the caller; the
 * official 2.x client, which takes URL-mode elicitations, is sent the question's page and replies
 * `accept`; the browser opens that link, is asked to sign in (the development sign-in, where the
 * caller of an AUTH_MODE=off service is `anonymous`), comes back to the question, types the digits
 * and accepts; the caller's client gets the transfer. Someone else signed in finds no question at
 * that link.
 *
 * CHROMIUM_PATH names the browser (default /usr/bin/chromium). Without one, and outside CI, the
 * test is skipped, saying so; in CI (`CI` set) it must run.
 */
import { existsSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { HandlerSet } from '@durable-mcp/handlers';
import { confirmTransfer } from '../../built-in-handlers/demo/confirm-transfer';
import type { TestService } from '../support/test-service';
import { startDevAnsweringService } from './dev-answering-service';
import { until } from '../support/until';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const PHONE = { width: 390, height: 844, deviceScaleFactor: 2 };
const handlers: HandlerSet = { name: 'transfers', tools: [confirmTransfer] };

if (!HAVE_CHROMIUM && !process.env.CI)
  console.warn(`caller-url.browser.int.test.ts skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
const describeWithBrowser = HAVE_CHROMIUM || process.env.CI ? describe : describe.skip;

let service: TestService | undefined;
let browser: Browser | undefined;
let origin = '';
beforeAll(async () => {
  if (!HAVE_CHROMIUM && !process.env.CI) return;
  ({ service, origin } = await startDevAnsweringService(handlers, { QUESTION_HOLD_MS: '4000' }));
  browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** A fresh browser profile (no cookies) with one page at a phone's width. */
async function phone(): Promise<Page> {
  const context = await browser!.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport(PHONE);
  return page;
}

const textOf = (page: Page) => page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);

/** From a signed-out question page: follows its sign-in link, signs in as `subject`, and is sent back. */
async function signInFrom(page: Page, subject: string): Promise<void> {
  await Promise.all([page.waitForNavigation(), page.click('a[href^="/answers/sign-in"]')]);
  await page.type('input[name=subject]', subject);
  await Promise.all([page.waitForNavigation(), page.click('form[method=post] button[type=submit]')]);
}

describeWithBrowser('a question for the caller, answered on another device in Chromium', () => {
  it('is sent to the caller as a link, opened on a phone, signed in as the caller, and answered there', async () => {
    const links: string[] = [];
    const desk = new Client(
      { name: 'desk', version: '1.0.0' },
      { capabilities: { elicitation: { form: {}, url: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    desk.setRequestHandler('elicitation/create', async (request) => {
      links.push(String((request.params as { url?: string }).url));
      return { action: 'accept' } as never;
    });
    await desk.connect(new StreamableHTTPClientTransport(new URL(service!.url)));
    const call = desk.callTool(
      { name: 'confirm_transfer', arguments: { account: 'DE0012345678', amount: 250 } },
      { timeout: 90_000 },
    );
    call.catch(() => undefined); // awaited below; a failure before then must not go unhandled
    const link = await until('the link the caller is sent', async () => links[0]);
    expect(link.startsWith(`${origin}/answers/q/`)).toBe(true);

    // Someone else, signed in on their own phone, learns only that the question is not theirs.
    const other = await phone();
    await other.goto(link);
    await signInFrom(other, 'mallory');
    const foreign = await other.goto(link);
    expect(foreign?.status()).toBe(403);
    expect(await textOf(other)).toContain('Not addressed to you');
    expect(await other.content()).not.toContain('5678');

    // The caller, on their phone: the link asks them to sign in, then shows the question.
    const page = await phone();
    await page.goto(link);
    expect(await textOf(page)).toContain('Sign in to answer');
    await signInFrom(page, 'anonymous');
    expect(page.url()).toBe(link);
    expect(await textOf(page)).toContain('Confirm the transfer of 250 to the account ending 5678');
    await page.type('input[name="content.lastDigits"]', '5678');
    const [taken] = await Promise.all([page.waitForNavigation(), page.click('button[value=accept]')]);
    expect(taken?.status()).toBe(200);
    expect(await textOf(page)).toMatch(
      /Accepted by anonymous at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC, on the answer page\./,
    );
    expect(await textOf(page)).toContain('5678');

    const result = (await call) as { content: Array<{ text: string }> };
    expect(result.content[0]!.text).toBe('Transferred 250 to the account ending 5678.');
    expect(links).toHaveLength(1);
    await desk.close();
  }, 120_000);
});
