/**
 * Starts the real stack the integration tests share: a Temporal dev server (TEMPORAL_ADDRESS, or
 * the `temporal` CLI) and a Postgres (DATABASE_URL, or an embedded one), and bundles the workflows
 * once. Each test file then starts its own API and worker against them.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { startLocalStack } from '../../cli/dev/local-stack/local-stack';
import { FAILURE_CONVERTER_PATH } from '../../lib/payload-codec/data-converter';

declare global {
  var __durableMcpStackStop: (() => Promise<void>) | undefined;
}

export default async function globalSetup(): Promise<void> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-test-'));
  chmodSync(scratch, 0o755); // an embedded Postgres runs as its own user when we are root
  const { temporalAddress, databaseUrl, stop } = await startLocalStack({
    dataDir: scratch,
    database: 'mcp_test',
    persistent: false,
  });

  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    // As the worker bundles them itself: failures leave the sandbox with their message encoded.
    failureConverterPath: FAILURE_CONVERTER_PATH,
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
  });
  const workflowBundlePath = path.join(scratch, 'workflow-bundle.js');
  writeFileSync(workflowBundlePath, code);

  const stackFile = path.join(scratch, 'stack.json');
  writeFileSync(stackFile, JSON.stringify({ temporalAddress, databaseUrl, workflowBundlePath }));
  process.env.MCP_TEST_STACK_FILE = stackFile;
  globalThis.__durableMcpStackStop = () => stop().catch(() => undefined);
}
