/**
 * Starts the real stack the integration tests share: a Temporal dev server (TEMPORAL_ADDRESS, or
 * the `temporal` CLI) and a Postgres (DATABASE_URL, or an embedded one), and bundles the workflows
 * once. Each test file then starts its own API and worker against them.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { startLocalPostgres } from '../../lib/local-stack/local-postgres';
import { startTemporalDevServer, waitForTemporal } from '../../lib/local-stack/temporal-dev-server';

declare global {
  var __durableMcpStackStop: (() => Promise<void>) | undefined;
}

export default async function globalSetup(): Promise<void> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'durable-mcp-test-'));
  chmodSync(scratch, 0o755); // an embedded Postgres runs as its own user when we are root
  const stops: Array<() => Promise<void>> = [];

  let temporalAddress = process.env.TEMPORAL_ADDRESS;
  if (temporalAddress) {
    await waitForTemporal(temporalAddress, 30_000);
  } else {
    const temporal = await startTemporalDevServer({ logFile: path.join(scratch, 'temporal.log') });
    temporalAddress = temporal.address;
    stops.push(temporal.stop);
  }

  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const pg = await startLocalPostgres({ dataDir: path.join(scratch, 'postgres'), database: 'mcp_test', persistent: false });
    databaseUrl = pg.url;
    stops.push(pg.stop);
  }

  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: { trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error, log() {} },
  });
  const workflowBundlePath = path.join(scratch, 'workflow-bundle.js');
  writeFileSync(workflowBundlePath, code);

  const stackFile = path.join(scratch, 'stack.json');
  writeFileSync(stackFile, JSON.stringify({ temporalAddress, databaseUrl, workflowBundlePath }));
  process.env.MCP_TEST_STACK_FILE = stackFile;
  globalThis.__durableMcpStackStop = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
}
