/**
 * docker-compose.yml's `upstream-example` profile, run as docs/gateway.md "Try it" says
 * (`UPSTREAM_URL=http://upstream-example:8000/mcp docker compose --profile upstream-example up`):
 * the example shop (examples/upstream-shop) on the service's image, the api and the worker in front
 * of it with compose's environment and the demo handler set a fresh .env leaves. Through the
 * published API port, with the official clients of both eras: the shop's tools are listed beside the
 * demo set's, a plain call completes, and the call that asks (place_order's delivery address)
 * completes once answered. The api and the worker start only once the shop is healthy (their
 * depends_on); started before it anyway, they serve its tools once it is up.
 */
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectElicitingLegacyClient } from '../support/eliciting-legacy-client';
import { connectModernClient } from '../support/modern-client';
import { until } from '../support/until';
import { buildDist, startTestTopology, type TestTopology } from './native-topology';

const QUOTE = { name: 'quote', arguments: { item: 'tea', quantity: 3 } };
const ORDER = { name: 'place_order', arguments: { item: 'cake', quantity: 2 } };
const ADDRESS = { action: 'accept' as const, content: { address: '1 Main Street' } };
const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

let stack: TestTopology;
const lines: string[] = [];

beforeAll(async () => {
  buildDist();
  stack = await startTestTopology({
    profiles: ['upstream-example'],
    // The api and the worker; their depends_on bring the rest, the shop among it.
    only: ['api', 'worker'],
    // What "Try it" sets; HANDLER_SET as a fresh .env leaves it (compose's default).
    variables: { UPSTREAM_URL: 'http://upstream-example:8000/mcp', HANDLER_SET: 'demo' },
    log: (line) => lines.push(line),
  });
}, 600_000);

afterAll(async () => {
  await stack?.close();
});

async function listedNames(): Promise<string[]> {
  const client = await connectModernClient(stack.url, {});
  try {
    return (await client.listTools()).tools.map((tool) => tool.name);
  } finally {
    await client.close();
  }
}

describe('the upstream-example profile', () => {
  it('runs the shop, and starts the api and the worker once it is healthy', () => {
    expect(stack.topology.process('upstream-example')?.exited()).toBeUndefined();
    for (const name of ['api', 'worker'])
      expect(stack.topology.services[name]!.dependsOn['upstream-example']).toBe('service_healthy');
    const at = (line: string) => lines.indexOf(line);
    expect(at('upstream-example: healthy')).toBeGreaterThanOrEqual(0);
    expect(at('upstream-example: healthy')).toBeLessThan(lines.findIndex((l) => l.startsWith('api: started')));
    expect(at('upstream-example: healthy')).toBeLessThan(lines.findIndex((l) => l.startsWith('worker: started')));
  });

  it("lists the shop's tools under their own names, beside the demo set's", async () => {
    expect(await listedNames()).toEqual(expect.arrayContaining(['quote', 'place_order', 'greet']));
  });

  it('a 2026-07-28 client (official 2.x): a plain call, and an order that asks for the address', async () => {
    const asked: string[] = [];
    const client = await connectModernClient(stack.url, ({ message }) => {
      asked.push(message);
      return ADDRESS;
    });
    try {
      expect(textOf(await client.callTool(QUOTE))).toBe('3 tea: 12 EUR');
      expect(textOf(await client.callTool(ORDER))).toBe('Ordered 2 cake (14 EUR) to 1 Main Street.');
      expect(asked).toEqual(['Where should 2 cake go?']);
    } finally {
      await client.close();
    }
  });

  it('a 2025-11-25 client (official 1.x): the same, the ask as elicitation/create on its session', async () => {
    const legacy = await connectElicitingLegacyClient(stack.url, ADDRESS);
    try {
      expect(textOf(await legacy.client.callTool(QUOTE, CallToolResultSchema))).toBe('3 tea: 12 EUR');
      expect(textOf(await legacy.client.callTool(ORDER, CallToolResultSchema))).toBe(
        'Ordered 2 cake (14 EUR) to 1 Main Street.',
      );
      expect(legacy.asked).toEqual(['Where should 2 cake go?']);
    } finally {
      await legacy.client.close();
    }
  });

  // As when the shop is started after them, or comes up late: within a minute of it, not at the next
  // five-minute refresh.
  it('api and worker started before the shop serve its tools soon after it is up', async () => {
    for (const name of ['api', 'worker', 'upstream-example']) await stack.topology.stop(name);
    await stack.topology.start('api');
    await stack.topology.start('worker');
    expect(await listedNames()).not.toContain('quote');
    await stack.topology.start('upstream-example');
    const started = Date.now();
    // Its failed listings are tried again backing off up to a minute: within that (and the listing's time).
    await until(
      "the shop's tools to be listed",
      async () => ((await listedNames()).includes('quote') ? true : undefined),
      70_000,
    );
    process.stdout.write(`shop tools listed ${Date.now() - started} ms after the shop was healthy\n`);
    const client = await connectModernClient(stack.url, () => ADDRESS);
    try {
      expect(textOf(await client.callTool(ORDER))).toBe('Ordered 2 cake (14 EUR) to 1 Main Street.');
    } finally {
      await client.close();
    }
  }, 180_000);
});
