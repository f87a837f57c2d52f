/**
 * `npm run guide:screenshots`: the operator's guide's pictures, taken from the running service.
 *
 * Starts the whole service on throwaway embedded defaults (a Temporal dev server with its Web UI,
 * an embedded Postgres, the demo handlers), leaves one deployment approval waiting on a person
 * (its first round answered, as a client would), finishes a second exchange, and has headless
 * Chromium photograph the Temporal Web UI's list of waiting exchanges, the waiting exchange and
 * its event history into docs/images/. CHROMIUM_PATH names the browser (default `chromium`).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { loadHandlerSet } from '../handlers';
import { parseConfig } from '../lib/config';
import { createLogger } from '../lib/log';
import { projectRoot } from '../lib/paths';
import { installTemporalRuntime } from '../lib/temporal-logging';
import { devKeyRing } from '../devtools/dev-key-ring';
import { freePort } from '../devtools/local-stack/free-port';
import { startLocalStack, type LocalStack } from '../devtools/local-stack/local-stack';
import { rawCall } from '../devtools/raw-mcp-call';
import { startService, type RunningService } from '../services/stack/start-service';

const IMAGES_DIR = path.join(projectRoot(), 'docs', 'images');
const CHROMIUM = process.env.CHROMIUM_PATH ?? 'chromium';
const run = promisify(execFile);

/** One screenshot of `url` after the Web UI has loaded and rendered it. */
async function photograph(url: string, file: string, size = '1440,960'): Promise<void> {
  await run(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--hide-scrollbars',
      `--window-size=${size}`,
      // The UI fetches from the server after its first paint; let it settle before the picture.
      '--virtual-time-budget=15000',
      `--screenshot=${path.join(IMAGES_DIR, file)}`,
      url,
    ],
    { timeout: 60_000 },
  );
  process.stdout.write(`  docs/images/${file}\n`);
}

/** The first two rounds of deploy_service: the client's roots and a model summary, as a client gives them. */
async function leaveApprovalWaiting(url: string): Promise<string> {
  const params = { name: 'deploy_service', arguments: { service: 'billing', version: '4.2.0', environment: 'production' } };
  const capabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };
  const first = await rawCall(url, 'tools/call', params, capabilities);
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
  );
  if (second.body.result?.resultType !== 'input_required')
    throw new Error(`deploy_service did not ask for approval: ${JSON.stringify(second.body)}`);
  return String(second.body.result.requestState);
}

async function main(): Promise<void> {
  mkdirSync(IMAGES_DIR, { recursive: true });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'guide-screenshots-'));
  const log = createLogger('guide', process.env.LOG_LEVEL ?? 'warn');
  installTemporalRuntime(log, { level: 'WARN' });
  let local: LocalStack | undefined;
  let service: RunningService | undefined;
  try {
    local = await startLocalStack({
      dataDir,
      database: 'mcp',
      persistent: false,
      temporalUiPort: await freePort(),
      waitForExternalTemporal: false,
      env: {},
    });
    const config = parseConfig({
      NODE_ENV: 'development',
      PORT: '0',
      HANDLER_SET: 'demo',
      DATABASE_URL: local.databaseUrl,
      TEMPORAL_ADDRESS: local.temporalAddress,
      REQUEST_STATE_KEYS: devKeyRing(dataDir, log),
      WORKER_METRICS_PORT: '0',
    });
    const handlers = loadHandlerSet(config.handlerSet);
    service = await startService({ config, handlers, log, apiLog: log, workerLog: log });
    const url = service.api!.url;
    const ui = `${local.temporalUiUrl}/namespaces/default`;

    await rawCall(url, 'tools/call', { name: 'greet', arguments: { name: 'Ada' } });
    await leaveApprovalWaiting(url);
    // A few seconds of waiting, so the pictures show a wait that has lasted.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const waiting = encodeURIComponent('ExchangeStatus = "running"');
    await photograph(`${ui}/workflows?query=${waiting}`, 'temporal-ui-waiting-list.png');
    const connection = await Connection.connect({ address: local.temporalAddress });
    try {
      const client = new Client({ connection });
      for await (const execution of client.workflow.list({ query: 'McpTarget = "deploy_service"' })) {
        const workflow = `${ui}/workflows/${encodeURIComponent(execution.workflowId)}/${execution.runId}`;
        await photograph(`${workflow}/history`, 'temporal-ui-waiting-exchange.png', '1440,1400');
        await photograph(`${workflow}/history?view=compact`, 'temporal-ui-history.png', '1440,1200');
        break;
      }
    } finally {
      await connection.close();
    }
  } finally {
    await service?.stop().catch(() => undefined);
    await local?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`guide screenshots failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
