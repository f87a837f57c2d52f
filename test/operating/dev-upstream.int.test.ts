/**
 * `durable-mcp dev --upstream <url>`, as a user runs it in front of an MCP server they have (the
 * official TypeScript SDK 2.x server here, 2026-07-28 only): its own embedded stack, no module, and
 * the server's tools served as durable exchanges. A 2025-11-25 client (the 1.x SDK's) gets the
 * server's ask as a real elicitation/create; a Ctrl-C stops it in order.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '../../cli/dev/local-stack/free-port';
import { projectRoot } from '../../lib/paths';
import { startSdkUpstream, type SdkUpstream } from '../support/sdk-upstream';
import { until } from '../support/until';

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

let upstream: SdkUpstream;
afterAll(() => upstream?.close());

it('serves an upstream server behind durable-mcp dev --upstream to a 2025-11-25 client', async () => {
  upstream = await startSdkUpstream();
  const work = mkdtempSync(path.join(tmpdir(), 'dev-upstream-'));
  chmodSync(work, 0o755); // as root, the embedded Postgres runs as the user postgres, who must enter it
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(await freePort()),
    TEMPORAL_DEV_PORT: String(await freePort()),
    TEMPORAL_DEV_UI_PORT: String(await freePort()),
    WORKER_METRICS_PORT: '0',
  };
  // Its own stack, as a user's: no Postgres or Temporal of the test run's, no module.
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'TEMPORAL_UI_URL', 'HANDLERS', 'HOST'] as const)
    delete env[name];
  const args = ['--import', 'tsx', 'cli/main.ts', 'dev', '--upstream', upstream.url, '--no-watch'];
  const dev = spawn(process.execPath, [...args, '--data-dir', path.join(work, 'data')], {
    cwd: projectRoot(),
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  dev.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => dev.once('exit', (code) => resolve(code)));
  try {
    const mcpUrl = await until(
      'durable-mcp dev to serve',
      async () => {
        if (dev.exitCode !== null) throw new Error(`durable-mcp dev exited:\n${output}`);
        return /MCP endpoint +(\S+)/.exec(output)?.[1];
      },
      180_000,
    );
    const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
    await client.connect(new LegacyTransport(new URL(mcpUrl)));
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    // No module: the server's tools alone (and the service's own await_answer), none of the demo's.
    expect(names).toEqual(expect.arrayContaining(['add', 'confirm_order', 'await_answer']));
    expect(names).not.toContain('greet');
    const result = await client.callTool({ name: 'confirm_order', arguments: { order: 'D-1' } }, CallToolResultSchema);
    expect(textOf(result)).toBe('placed D-1 for Ada (order:D-1)');
    await client.close();
  } finally {
    process.kill(-dev.pid!, 'SIGINT');
    expect(await exited).toBe(0);
  }
}, 300_000);
