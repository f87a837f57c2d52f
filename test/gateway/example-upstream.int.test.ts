/**
 * The repository's example upstream (examples/upstream-shop, the official SDK alone) run as its
 * README says, as a process of its own, with the service in front of it: its quote is a plain call,
 * and its order asks the caller's client for an address, a 2025-11-25 client as a real
 * elicitation/create. Its upstreams.json is valid as `durable-mcp check --upstreams` reads it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { checkUpstreamsCommand } from '../../cli/check-upstreams-command';
import { projectRoot } from '../../lib/paths';
import { useTestService } from '../support/test-service';
import { until } from '../support/until';

const EXAMPLE = path.join(projectRoot(), 'examples/upstream-shop');
const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

let shop: ChildProcess;
const env: Record<string, string> = { HANDLERS: 'none', UPSTREAM_NAME: 'shop', UPSTREAM_TOOL_PREFIX: 'shop_' };
beforeAll(async () => {
  shop = spawn(process.execPath, [path.join(EXAMPLE, 'server.mjs')], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  shop.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  env.UPSTREAM_URL = await until('the example shop to listen', async () => /listening on (\S+)/.exec(output)?.[1]);
});
afterAll(() => shop?.kill('SIGTERM'));
const service = useTestService(env);

it("serves the example shop's tools to a 2025-11-25 client, its order asking for the address", async () => {
  const client = new LegacyClient({ name: 'desk', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    expect(request.params.message).toBe('Where should 2 cake go?');
    return { action: 'accept', content: { address: '1 Main Street' } };
  });
  await client.connect(new LegacyTransport(new URL(service.url)));
  const quote = await client.callTool(
    { name: 'shop_quote', arguments: { item: 'tea', quantity: 3 } },
    CallToolResultSchema,
  );
  expect(textOf(quote)).toBe('3 tea: 12 EUR');
  const order = await client.callTool(
    { name: 'shop_place_order', arguments: { item: 'cake', quantity: 2 } },
    CallToolResultSchema,
  );
  expect(textOf(order)).toBe('Ordered 2 cake (14 EUR) to 1 Main Street.');
  await client.close();
});

it('declares the example shop with a valid policy in its upstreams.json', () => {
  const out: string[] = [];
  const stream = { write: (text: string) => out.push(text) } as unknown as NodeJS.WritableStream;
  expect(checkUpstreamsCommand(path.join(EXAMPLE, 'upstreams.json'), stream)).toBe(0);
  expect(out.join('')).toContain('upstream shop at http://upstream-example:8000/mcp; policies: large orders');
});
