/**
 * An approval policy in front of a real upstream (the official TypeScript SDK 2.x server,
 * test/support/sdk-upstream.ts), answered in a real browser (Debian's Chromium, driven by
 * puppeteer-core), end to end: the caller is the official 1.x client (`@modelcontextprotocol/sdk`,
 * a 2025-11-25 session) waiting on its call of the upstream's tool; the policy holds the call as a
 * question to the group `approvers`; an approver signs in at the answer page (its development
 * sign-in, as `durable-mcp dev` runs it), finds the question in the inbox, reads the upstream's tool
 * under its prefixed name, what the tool says it does and the call's arguments, all of them, and
 * accepts. The call is forwarded then, once, and its result is the caller's. A call the approver
 * declines in the browser is never forwarded: its caller reads the tool error saying who declined.
 *
 * CHROMIUM_PATH names the browser (default /usr/bin/chromium). Without one, and outside CI, the
 * test is skipped, saying so; in CI (`CI` set) it must run.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { startDevAnsweringService } from '../answers/dev-answering-service';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import type { TestService } from '../support/test-service';
import { until } from '../support/until';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);

const BIG_SUMS = {
  name: 'big sums',
  tools: ['add'],
  when: [{ argument: 'a', op: 'gt', value: 100 }],
  approve: { anyOf: [{ group: 'approvers' }], waitMs: 3_600_000 },
};
const QUESTION = `Forward this call to shop's tool "add"? It says: Adds two numbers. (policy: big sums)`;

type ToolResult = {
  content: Array<{ type: string; text: string }>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
};

if (!HAVE_CHROMIUM && !process.env.CI)
  console.warn(`upstream-approval.browser.int.test.ts skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
const describeWithBrowser = HAVE_CHROMIUM || process.env.CI ? describe : describe.skip;

let upstream: SdkUpstream | undefined;
let service: TestService | undefined;
let browser: Browser | undefined;
let origin = '';

beforeAll(async () => {
  if (!HAVE_CHROMIUM && !process.env.CI) return;
  upstream = await startSdkUpstream();
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'upstreams-')), 'upstreams.json');
  writeFileSync(
    file,
    JSON.stringify({ upstreams: [{ name: 'shop', url: upstream.url, toolPrefix: 'shop_', policies: [BIG_SUMS] }] }),
  );
  // The 1.x client waits for the call's own result however long the approver takes (within its
  // request timeout below): no pending result comes first.
  ({ service, origin } = await startDevAnsweringService(
    { name: 'none', tools: [] },
    { UPSTREAMS_FILE: file, LEGACY_PENDING_AFTER_MS: '0' },
  ));
  browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await service?.close();
  await upstream?.close();
});

const textOf = (page: Page) => page.$eval('body', (body) => (body as unknown as { innerText: string }).innerText);

/** A fresh browser profile signed in as Rita, of the group `approvers`, at the development sign-in. */
async function approverPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser!.createBrowserContext();
  const page = await context.newPage();
  await page.goto(`${origin}/answers`);
  expect(new URL(page.url()).pathname).toBe('/answers/sign-in');
  await page.type('input[name=subject]', 'rita');
  await page.type('input[name=name]', 'Rita Approver');
  await page.type('input[name=groups]', 'approvers');
  await Promise.all([page.waitForNavigation(), page.click('form[method=post] button[type=submit]')]);
  expect(new URL(page.url()).pathname).toBe('/answers');
  expect(await textOf(page)).toContain('Signed in as Rita Approver');
  return { context, page };
}

/** The official 1.x client in a 2025-11-25 session, calling `shop_add`: its call, still waiting. */
async function legacyCall(args: { a: number; b: number }) {
  const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: {} });
  const transport = new LegacyTransport(new URL(service!.url));
  await client.connect(transport);
  expect(transport.protocolVersion).toBe('2025-11-25');
  const call = client.callTool({ name: 'shop_add', arguments: args }, CallToolResultSchema, { timeout: 100_000 });
  call.catch(() => undefined); // awaited below; a failure before then must not go unhandled
  return { client, call: call as Promise<ToolResult> };
}

/** The question on the call with `a`, once it waits, as the approver opens it from the inbox. */
async function openQuestion(page: Page, a: number): Promise<string> {
  const id = await until(`the question on a=${a}`, async () => {
    const { rows } = await service!.pool.query<{ id: string }>(
      `SELECT id FROM questions WHERE target = 'shop_add' AND arguments->>'a' = $1 AND status = 'waiting'`,
      [String(a)],
    );
    return rows[0]?.id;
  });
  await page.goto(`${origin}/answers`);
  const inbox = await textOf(page);
  expect(inbox).toContain('shop_add');
  expect(inbox).toContain(`Forward this call to shop's tool "add"?`);
  await Promise.all([page.waitForNavigation(), page.click(`a[href="/answers/q/${encodeURIComponent(id)}"]`)]);
  return id;
}

/** Every argument the page shows, as name → the JSON it shows. */
const shownArguments = (page: Page) =>
  page.$$eval('dl.arguments > dt, dl.arguments > dd', (cells) => {
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i + 1 < cells.length; i += 2)
      pairs.push([
        (cells[i] as unknown as { innerText: string }).innerText,
        (cells[i + 1] as unknown as { innerText: string }).innerText,
      ]);
    return pairs;
  });

const upstreamCallsWith = (a: number) => upstream!.calls.filter((call) => call.arguments?.a === a);

describeWithBrowser('an upstream call held for approval, answered in Chromium, its caller a 1.x client', () => {
  it('shows the upstream tool, its description and the whole call; the accept releases it, forwarded once', async () => {
    const { context, page } = await approverPage();
    const { client, call } = await legacyCall({ a: 250, b: 1 });
    const questionId = await openQuestion(page, 250);

    const shown = await textOf(page);
    expect(shown).toMatch(/Tool\s+shop_add/);
    expect(shown).toContain(QUESTION);
    expect(await shownArguments(page)).toEqual([
      ['a', '250'],
      ['b', '1'],
    ]);
    // Held: nothing reached the upstream while the question waits.
    expect(upstreamCallsWith(250)).toEqual([]);

    await page.type('textarea[name="content.note"], input[name="content.note"]', 'fine by me');
    const [taken] = await Promise.all([page.waitForNavigation(), page.click('button[value=accept]')]);
    expect(taken?.status()).toBe(200);
    expect(page.url()).toBe(`${origin}/answers/q/${encodeURIComponent(questionId)}`);
    expect(await textOf(page)).toMatch(/Accepted by rita .*on the answer page\./);

    const result = await call;
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: 'text', text: '251' }]);
    expect(upstreamCallsWith(250)).toHaveLength(1);
    expect(upstreamCallsWith(250)[0]!.arguments).toEqual({ a: 250, b: 1 });
    const approvals = result._meta?.['io.durable-mcp/approvals'] as Array<{ via?: string; action?: string }>;
    expect(approvals).toEqual([expect.objectContaining({ via: 'page', action: 'accept' })]);
    await client.close();
    await context.close();
  }, 120_000);

  it('never forwards a call the approver declines in the browser: the 1.x client reads the tool error', async () => {
    const { context, page } = await approverPage();
    const { client, call } = await legacyCall({ a: 300, b: 2 });
    await openQuestion(page, 300);
    expect(await shownArguments(page)).toEqual([
      ['a', '300'],
      ['b', '2'],
    ]);
    const [taken] = await Promise.all([page.waitForNavigation(), page.click('button[value=decline]')]);
    expect(taken?.status()).toBe(200);

    const result = await call;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: `The call to shop's tool "add" was not approved (decline by Rita Approver). It was not forwarded.`,
      },
    ]);
    expect(upstreamCallsWith(300)).toEqual([]);
    await client.close();
    await context.close();
  }, 120_000);
});
