/**
 * `npm run guide:screenshots`: the operator's guide's pictures, taken from the running service.
 *
 * Starts the whole service on throwaway embedded defaults (a Temporal dev server with its Web UI,
 * an embedded Postgres, the demo handlers), leaves one deployment approval waiting on a person
 * (its first round answered, as a client would), finishes a second exchange, and has headless
 * Chromium photograph the Temporal Web UI's list of waiting exchanges, the waiting exchange and
 * its event history into docs/images/. CHROMIUM_PATH names the browser (default /usr/bin/chromium, Debian's package).
 * What Temporal holds is encrypted: the browser signs in to the API's codec endpoint with the admin
 * token and the Web UI decodes through it, as an operator's does (the history's picture waits for a
 * timer's summary, which shows only decoded).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import puppeteer, { type Browser } from 'puppeteer-core';
import { parseConfig } from '../lib/config';
import { serviceDataConverter } from '../lib/payload-codec/data-converter';
import { createLogger } from '../lib/log';
import { projectRoot } from '../lib/paths';
import { installTemporalRuntime } from '../lib/temporal/logging';
import { devKeyRings } from '../cli/dev/dev-key-ring';
import { freePort } from '../cli/dev/local-stack/free-port';
import { startLocalStack, type LocalStack } from '../cli/dev/local-stack/local-stack';
import { rawCall } from './raw-mcp-call';
import { loadHandlers } from '../cli/start/handler-module';
import { startService, type RunningService } from '../cli/start/start-service';
import { exchangeColumnsScript } from '../cli/dev/local-stack/temporal-ui-columns';

const IMAGES_DIR = path.join(projectRoot(), 'docs', 'images');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * One screenshot of `url` once the Web UI has rendered it: the page is loaded, its requests have
 * settled and `ready` (text the finished page shows) is on it.
 */
async function photograph(
  browser: Browser,
  url: string,
  file: string,
  ready: string,
  options: { width?: number; height?: number; tab?: string } = {},
): Promise<void> {
  const page = await browser.newPage();
  try {
    await page.setViewport({ width: options.width ?? 1440, height: options.height ?? 960 });
    await page.goto(url, { waitUntil: 'networkidle2', timeout: 30_000 });
    if (options.tab) await page.locator(`::-p-text(${options.tab})`).click();
    await page
      .waitForFunction(`document.body.innerText.includes(${JSON.stringify(ready)})`, { timeout: 30_000 })
      .catch(async (error: unknown) => {
        await page.screenshot({ path: path.join(tmpdir(), `unready-${file}`) });
        throw new Error(`${url} never showed "${ready}" (what it showed: ${path.join(tmpdir(), `unready-${file}`)})`, {
          cause: error,
        });
      });
    // Its last transitions, and Markdown it renders in frames of its own after the text above.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await page.screenshot({ path: path.join(IMAGES_DIR, file) });
    process.stdout.write(`  docs/images/${file}\n`);
  } finally {
    await page.close();
  }
}

/** A whole greet exchange: asked for a name, answered, greeted. */
async function greetAda(url: string): Promise<void> {
  const first = await rawCall(url, 'tools/call', { name: 'greet', arguments: {} });
  const answered = await rawCall(url, 'tools/call', {
    name: 'greet',
    arguments: {},
    requestState: first.body.result?.requestState,
    inputResponses: { name: { action: 'accept', content: { name: 'Ada' } } },
  });
  if (answered.body.result?.resultType === 'input_required') throw new Error('greet asked again');
}

/**
 * Signs the browser in to the codec endpoint with the admin token, as an operator does, and has the
 * Web UI send the sign-in cookie with its decode requests: "Include cross-origin credentials" in
 * its codec settings, kept in the browser's storage (the dev server's UI cannot be told at start).
 * The list gets the operator's guide's columns (cli/dev/local-stack/temporal-ui-columns.ts), as a person adds them.
 */
async function signInToCodec(browser: Browser, codec: string, token: string, uiUrl: string): Promise<void> {
  const page = await browser.newPage();
  try {
    await page.goto(`${codec}/sign-in`);
    await page.type('#token', token);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);
    if (!(await page.content()).includes('Signed in')) throw new Error('the codec sign-in was refused');
    await page.goto(uiUrl, { waitUntil: 'domcontentloaded' });
    const settings = { endpoint: codec, includeCredentials: true, overrideRemoteCodecConfiguration: true };
    await page.evaluate(
      Object.entries(settings)
        .map(
          ([key, value]) => `localStorage.setItem(${JSON.stringify(key)}, ${JSON.stringify(JSON.stringify(value))});`,
        )
        .join('') + exchangeColumnsScript('default'),
    );
  } finally {
    await page.close();
  }
}

/** The first two rounds of deploy_service: the client's roots and a model summary, as a client gives them. */
async function leaveApprovalWaiting(url: string): Promise<string> {
  const params = {
    name: 'deploy_service',
    arguments: { service: 'billing', version: '4.2.0', environment: 'production' },
  };
  const capabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };
  const meta = { 'io.modelcontextprotocol/clientInfo': { name: 'ops-assistant', version: '1.4.0' } };
  const first = await rawCall(url, 'tools/call', params, capabilities, { meta });
  const requestState = first.body.result?.requestState;
  if (typeof requestState !== 'string') throw new Error(`deploy_service did not ask: ${JSON.stringify(first.body)}`);
  const second = await rawCall(
    url,
    'tools/call',
    {
      ...params,
      requestState,
      inputResponses: {
        roots: { roots: [{ uri: 'file:///home/ops/src/billing', name: 'billing' }] },
        summary: {
          role: 'assistant',
          model: 'claude-sonnet',
          content: { type: 'text', text: 'Version 4.2.0 moves invoice rounding to the ledger service.' },
        },
      },
    },
    capabilities,
    { meta },
  );
  if (second.body.result?.resultType !== 'input_required')
    throw new Error(`deploy_service did not ask for approval: ${JSON.stringify(second.body)}`);
  return String(second.body.result.requestState);
}

async function main(): Promise<void> {
  mkdirSync(IMAGES_DIR, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'guide-screenshots-'));
  chmodSync(dataDir, 0o755); // an embedded Postgres runs as its own user when we are root
  const log = createLogger('guide', process.env.LOG_LEVEL ?? 'warn');
  installTemporalRuntime(log, { level: 'WARN' });
  let local: LocalStack | undefined;
  let service: RunningService | undefined;
  let browser: Browser | undefined;
  try {
    const apiPort = await freePort();
    const codec = `http://127.0.0.1:${apiPort}/codec`;
    const adminToken = randomBytes(32).toString('hex');
    local = await startLocalStack({
      dataDir,
      database: 'mcp',
      persistent: false,
      temporalUiPort: await freePort(),
      temporalUiCodecEndpoint: codec,
      waitForExternalTemporal: false,
      env: {},
    });
    const config = parseConfig({
      NODE_ENV: 'development',
      PORT: String(apiPort),
      HANDLER_SET: 'demo',
      ADMIN_TOKEN: adminToken,
      TEMPORAL_UI_URL: local.temporalUiUrl,
      DATABASE_URL: local.databaseUrl,
      TEMPORAL_ADDRESS: local.temporalAddress,
      ...devKeyRings(dataDir, log, {}),
      WORKER_METRICS_PORT: '0',
    });
    const handlers = await loadHandlers(config.handlers);
    service = await startService({ config, handlers, log, apiLog: log, workerLog: log });
    const url = service.api!.url;
    const ui = `${local.temporalUiUrl}/namespaces/default`;

    await greetAda(url);
    await leaveApprovalWaiting(url);
    // A few seconds of waiting, so the pictures show a wait that has lasted.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    await signInToCodec(browser, codec, adminToken, local.temporalUiUrl!);
    // The guide's query for exchanges waiting on a person for more than 5 minutes, with 2 seconds.
    const cutoff = new Date(Date.now() - 2_000).toISOString();
    const waiting = encodeURIComponent(`ExecutionStatus = "Running" AND WaitingSince < "${cutoff}"`);
    // Wide enough for every exchange column.
    await photograph(browser, `${ui}/workflows?query=${waiting}`, 'temporal-ui-waiting-list.png', 'exchange-', {
      width: 2200,
      height: 600,
    });
    const connection = await Connection.connect({ address: local.temporalAddress });
    try {
      const client = new Client({ connection, dataConverter: serviceDataConverter(config.payloadCodec) });
      for await (const execution of client.workflow.list({ query: 'McpTarget = "deploy_service"' })) {
        const workflow = `${ui}/workflows/${encodeURIComponent(execution.workflowId)}/${execution.runId}`;
        await photograph(browser, `${workflow}/history`, 'temporal-ui-waiting-exchange.png', 'round 2 deadline', {
          height: 1400,
        });
        await photograph(browser, `${workflow}/history`, 'temporal-ui-current-details.png', 'Current Details', {
          height: 1100,
          tab: 'User Metadata',
        });
        break;
      }
    } finally {
      await connection.close();
    }
  } finally {
    await browser?.close().catch(() => undefined);
    await service?.stop().catch(() => undefined);
    await local?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`guide screenshots failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
