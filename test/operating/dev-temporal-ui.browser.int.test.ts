/**
 * The Temporal Web UI and CLI on `durable-mcp dev`, as an operator meets them on first visit: the
 * command as a user runs it (its own embedded Postgres and Temporal dev server, the demo
 * handlers), a `refund_order` waiting on an approver for its own four hours and a `greet` waiting
 * on its caller.
 *
 * - The CLI commands the guides give work as written: `temporal workflow metadata` and
 *   `describe` with `--codec-endpoint` and `--codec-auth "Bearer $ADMIN_TOKEN"` show the summary
 *   and current details decoded (the metadata query encodes its no arguments through
 *   `/codec/encode`), and the current details state the question's own deadline.
 * - The dev stack's codec endpoint trusts loopback (CODEC_TRUST_LOOPBACK): a decode from this
 *   machine needs no credential, an encode of payloads still takes CODEC_ENCODE_TOKEN.
 * - In a real browser (Debian's Chromium through puppeteer-core), with no sign-in and no codec
 *   settings: the list shows no codec banner and, on first visit, each row's tool, caller, status
 *   and wait (the dev stack's UI door seeds the columns; a browser's own choice is kept); an
 *   exchange's page shows its input and its User Metadata decoded.
 *
 * CHROMIUM_PATH names the browser (default /usr/bin/chromium). Without one, and outside CI, the
 * browser's part is skipped, saying so; in CI (`CI` set) it must run. UPDATE_SCREENSHOTS=1 writes
 * the operator's guide's pictures of the dev stack's UI to docs/images/temporal-ui-dev-*.png.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { findTemporalCli } from '../../cli/dev/local-stack/temporal-dev-server';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { projectRoot } from '../../lib/paths';
import { UI_COLUMNS_STORAGE_KEY } from '../../cli/dev/local-stack/temporal-ui-columns';
import { rawCall } from '../support/raw-mcp';
import { until } from '../support/until';

const run = promisify(execFile);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';
const IMAGES_DIR = path.join(projectRoot(), 'docs', 'images');
const CLIENT_INFO = { 'io.modelcontextprotocol/clientInfo': { name: 'ops-assistant', version: '1.4.0' } };
const cli = findTemporalCli();

const work = mkdtempSync(path.join(tmpdir(), 'dev-temporal-ui-'));
chmodSync(work, 0o755); // as root, the embedded Postgres runs as the user postgres, who must enter it
const dataDir = path.join(work, 'data');

let dev: ChildProcess | undefined;
let output = '';
let api = '';
let temporalAddress = '';
let uiUrl = '';
let adminToken = '';
const workflows = { refund: '', greet: '' };
/** The refund's run, which the UI's history page names. */
let refundRun = '';

beforeAll(async () => {
  const ports = { api: await freePort(), ui: await freePort() };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(ports.api),
    TEMPORAL_DEV_PORT: '0',
    TEMPORAL_DEV_UI_PORT: String(ports.ui),
    WORKER_METRICS_PORT: '0',
  };
  // Its own stack, as a user's: nothing of the test run's, and no codec setting of its own.
  for (const name of [
    'DATABASE_URL',
    'TEMPORAL_ADDRESS',
    'TEMPORAL_UI_URL',
    'HANDLERS',
    'HOST',
    'ADMIN_TOKEN',
    'CODEC_TRUST_LOOPBACK',
    'NODE_ENV',
  ] as const)
    delete env[name];
  dev = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'dev', 'demo', '--data-dir', dataDir], {
    cwd: projectRoot(),
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  dev.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until(
    'durable-mcp dev to serve',
    async () => {
      if (dev!.exitCode !== null) throw new Error(`durable-mcp dev exited:\n${output}`);
      return /Temporal Web UI +\S+/.test(output) ? true : undefined;
    },
    180_000,
  );
  api = /MCP endpoint +(\S+)\/mcp/.exec(output)![1]!;
  temporalAddress = /Temporal +(\d+\.\d+\.\d+\.\d+:\d+)/.exec(output)![1]!;
  uiUrl = /Temporal Web UI +(\S+)/.exec(output)![1]!;
  adminToken = readFileSync(path.join(dataDir, 'dev-admin-token'), 'utf8').trim();

  const refund = await rawCall(
    `${api}/mcp`,
    'tools/call',
    { name: 'refund_order', arguments: { order: 'A-1001', amount: 42, reason: 'arrived damaged' } },
    { elicitation: { form: {} } },
    { meta: CLIENT_INFO },
  );
  expect(refund.body.result?.resultType).toBe('input_required');
  const greet = await rawCall(`${api}/mcp`, 'tools/call', { name: 'greet', arguments: {} }, undefined, {
    meta: CLIENT_INFO,
  });
  expect(greet.body.result?.resultType).toBe('input_required');
  // Both wait: each is listed by its tool with WaitingSince set.
  const waiting = (tool: string) =>
    until(`${tool} waiting`, async () => {
      const query = `McpTarget = "${tool}" AND WaitingSince IS NOT NULL`;
      const { stdout } = await temporal('workflow', 'list', '--query', query, '--output', 'json');
      return (JSON.parse(stdout || '[]') as Array<{ execution: { workflowId: string; runId: string } }>)[0]?.execution;
    });
  const refundExecution = await waiting('refund_order');
  workflows.refund = refundExecution.workflowId;
  refundRun = refundExecution.runId;
  workflows.greet = (await waiting('greet')).workflowId;
  expect(workflows.refund).toMatch(/^exchange-/);
  expect(workflows.greet).toMatch(/^exchange-/);
}, 240_000);

afterAll(async () => {
  if (dev && dev.exitCode === null) {
    const exited = new Promise((resolve) => dev!.once('exit', resolve));
    process.kill(-dev.pid!, 'SIGINT');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))]);
    if (dev.exitCode === null) process.kill(-dev.pid!, 'SIGKILL');
  }
  dev?.stdout?.destroy();
  dev?.stderr?.destroy();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

/** The `temporal` CLI against the dev stack's Temporal. */
function temporal(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(cli!, [...args, '--address', temporalAddress], { timeout: 30_000 });
}

/** The guides' codec flags: the API's codec endpoint and the admin token. */
const codecFlags = () => ['--codec-endpoint', `${api}/codec`, '--codec-auth', `Bearer ${adminToken}`];

(cli ? describe : describe.skip)('the temporal CLI, with the flags the guides give', () => {
  it('shows the current details decoded: the question waits on its approvers until its own deadline, 4 h', async () => {
    const { stdout } = await temporal('workflow', 'metadata', '--workflow-id', workflows.refund, ...codecFlags());
    expect(stdout).toContain('**Waiting for the answers to round 1** of tools/call refund_order');
    expect(stdout).toMatch(
      /approval waits on group refund-approvers or scope refunds:approve \(not the caller\) until \S+Z \(its own wait: 4 h\); after 2 h also group finance-leads/,
    );
    expect(stdout).toContain("(the questions' own wait: 4 h)");
    expect(stdout).not.toContain('a round)');
  });

  it('describes the workflow with its summary and details decoded', async () => {
    const { stdout } = await temporal('workflow', 'describe', '--workflow-id', workflows.greet, ...codecFlags());
    expect(stdout).toContain('tools/call greet · modern · ops-assistant 1.4.0');
    expect(stdout).toContain('Exchange: ');
    expect(stdout).not.toContain('binary/encrypted');
  });

  it('decodes with no credential from this machine (the dev stack trusts loopback)', async () => {
    const { stdout } = await temporal(
      'workflow',
      'metadata',
      '--workflow-id',
      workflows.greet,
      '--codec-endpoint',
      `${api}/codec`,
    );
    expect(stdout).toContain('What is your name?');
    expect(stdout).toContain('(the round timeout: 600 s)');
  });
});

describe("the dev stack's codec endpoint", () => {
  const post = (route: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${api}/codec${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-namespace': 'default', ...headers },
      body: JSON.stringify(body),
    });
  const sample = { payloads: [{ metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: 'IjEi' }] };

  it('decodes from loopback without a credential, and encodes nothing but nothing without its token', async () => {
    expect(output).toContain('CODEC_TRUST_LOOPBACK');
    expect((await post('/decode', sample)).status).toBe(200);
    const empty = await post('/encode', {});
    expect(empty.status).toBe(200);
    expect(await empty.json()).toEqual({ payloads: [] });
    expect((await post('/encode', sample)).status).toBe(404);
    expect((await post('/encode', sample, { authorization: `Bearer ${adminToken}` })).status).toBe(404);
  });
});

const inBrowser = HAVE_CHROMIUM ? describe : process.env.CI ? describe : describe.skip;
if (!HAVE_CHROMIUM && !process.env.CI)
  process.stderr.write(`dev-temporal-ui: no Chromium at ${CHROMIUM}; the Web UI's checks are skipped\n`);

inBrowser('the Temporal Web UI of the dev stack, on first visit', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The text of the page and of its frames (the UI renders Markdown, the details, in frames of its own). */
  async function textOf(page: Page): Promise<string> {
    const texts = await Promise.all(
      page.frames().map((frame) => frame.evaluate('document.body?.innerText ?? ""').catch(() => '') as Promise<string>),
    );
    return texts.join('\n');
  }

  /** A page of the UI once `ready` shows in it or its frames, with its text. */
  async function open(page: Page, url: string, ready: string, tab?: string): Promise<string> {
    await page.goto(url, { waitUntil: 'networkidle2', timeout: 30_000 });
    if (tab) await page.locator(`::-p-text(${tab})`).click();
    await until(`"${ready}" on ${url}`, async () => ((await textOf(page)).includes(ready) ? true : undefined));
    // Decoding finishes after the text first shows: let its requests settle.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    return textOf(page);
  }

  async function photograph(page: Page, file: string): Promise<void> {
    if (SCREENSHOTS) await page.screenshot({ path: path.join(IMAGES_DIR, file) });
  }

  it('lists the exchanges with no codec banner, each row with its tool, caller, status and wait, on first visit', async () => {
    const page = await browser.newPage();
    try {
      await page.setViewport({ width: 1920, height: 560 });
      // A browser that never saw this UI: no sign-in, no codec settings, no columns of its own.
      const text = await open(page, `${uiUrl}/namespaces/default/workflows`, workflows.refund);
      expect(text).not.toContain('Codec Server could not connect');
      for (const column of ['McpTarget', 'McpPrincipal', 'ExchangeStatus', 'WaitingSince', 'WaitingOn', 'AnsweredBy'])
        expect(text).toContain(column);
      // Its row: the id, then the tool, the caller, the exchange's status and since when it waits.
      expect(text).toMatch(
        new RegExp(`${workflows.refund}\\s+refund_order\\s+anonymous\\s+running\\s+\\w{3} \\d+, \\d{4}`),
      );
      await photograph(page, 'temporal-ui-dev-list.png');
    } finally {
      await page.close();
    }
  });

  it('keeps the columns a person chose in this browser', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(uiUrl, { waitUntil: 'domcontentloaded' });
      const own = JSON.stringify({
        default: [
          { label: 'Status', pinned: true },
          { label: 'Workflow ID', pinned: true },
          { label: 'McpTarget', pinned: false },
        ],
      });
      await page.evaluate(`localStorage.setItem(${JSON.stringify(UI_COLUMNS_STORAGE_KEY)}, ${JSON.stringify(own)})`);
      const text = await open(page, `${uiUrl}/namespaces/default/workflows`, workflows.refund);
      expect(text).toContain('McpTarget');
      expect(text).not.toContain('McpPrincipal');
      expect(await page.evaluate(`localStorage.getItem(${JSON.stringify(UI_COLUMNS_STORAGE_KEY)})`)).toBe(own);
    } finally {
      await page.close();
    }
  });

  it("shows an exchange's input and its User Metadata decoded", async () => {
    const page = await browser.newPage();
    try {
      await page.setViewport({ width: 1440, height: 1000 });
      const workflow = `${uiUrl}/namespaces/default/workflows/${encodeURIComponent(workflows.refund)}/${refundRun}`;
      const input = await open(page, `${workflow}/history`, '"arrived damaged"');
      expect(input).not.toContain('Codec Server could not connect');
      expect(input).not.toContain('binary/encrypted');
      const metadata = await open(page, `${workflow}/history`, 'own wait: 4 h', 'User Metadata');
      expect(metadata).toContain('tools/call refund_order · modern · ops-assistant 1.4.0');
      expect(metadata).toContain('waits on group refund-approvers or scope refunds:approve (not the caller)');
      // The UI's Markdown sets the apostrophe typographically.
      expect(metadata).toMatch(/Deadline \S+Z \(the questions['’] own wait: 4 h\)/);
      await photograph(page, 'temporal-ui-dev-details.png');
    } finally {
      await page.close();
    }
  });
});
