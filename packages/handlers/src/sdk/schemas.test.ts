/**
 * The schemas a tool is listed with are the ones a real SDK server lists for the same
 * registration. The adapter converts them through SDK members that are not public API
 * (schemas.ts), so this is what fails if an SDK release changes them.
 */
import { Client } from '@modelcontextprotocol/client';
import { fromJsonSchema, InMemoryTransport, McpServer as SdkMcpServer, type Tool } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import { McpServer } from '../sdk';

type Registration = [name: string, config: Record<string, unknown>];

// From the SDK's docs (examples/guides/servers/tools.examples.ts), plus the shapes the docs do not
// show: defaults and refinements, a raw zod shape (the deprecated form), a JSON Schema wrapped
// with fromJsonSchema, and every descriptive field.
const registrations: Registration[] = [
  [
    'search',
    {
      description: 'Search the product catalog',
      inputSchema: z.object({
        query: z.string().describe('Substring to match against product names'),
        limit: z.number().int().max(50).optional(),
      }),
    },
  ],
  [
    'product-details',
    {
      description: 'Look up one product by its exact name',
      inputSchema: z.object({ name: z.string() }),
      outputSchema: z.object({ name: z.string(), price: z.number() }),
    },
  ],
  [
    'clear-catalog',
    {
      title: 'Clear the catalog',
      description: 'Remove every product from the catalog',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    },
  ],
  [
    'bmi',
    {
      title: 'BMI',
      description: 'Calculate Body Mass Index',
      inputSchema: z.object({ weightKg: z.number().positive(), heightM: z.number().default(1.8) }),
      outputSchema: z.object({ bmi: z.number() }),
      icons: [{ src: 'https://example.com/bmi.png' }],
      _meta: { 'example.com/owner': 'health' },
    },
  ],
  ['raw-shape', { inputSchema: { city: z.string(), days: z.number().int().min(1).max(7) } }],
  [
    'json-schema',
    {
      inputSchema: fromJsonSchema({
        type: 'object',
        properties: { ticket: { type: 'string', pattern: '^[A-Z]+-[0-9]+$' } },
        required: ['ticket'],
      }),
    },
  ],
];

const ok = async () => ({ content: [] });

async function listedByTheSdk(): Promise<Tool[]> {
  const real = new SdkMcpServer({ name: 'catalog', version: '1.0.0' });
  for (const [name, config] of registrations) real.registerTool(name, config as never, ok);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await real.connect(serverSide);
  const client = new Client({ name: 'schema-pin', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await real.close();
  }
}

describe('the tools an SDK-style module lists', () => {
  it('are the tools a real SDK McpServer lists for the same registrations', async () => {
    const adapted = new McpServer({ name: 'catalog', version: '1.0.0' });
    for (const [name, config] of registrations) adapted.registerTool(name, config as never, ok);
    const ours = adapted.toHandlerSet().tools.map((handler) => handler.tool);
    expect(ours).toEqual(await listedByTheSdk());
  });

  it('refuses a non-object outputSchema, whose results the SDK shapes per protocol era', () => {
    const server = new McpServer({ name: 'n', version: '1' });
    server.registerTool(
      'count',
      { outputSchema: z.number() },
      async () => ({ content: [], structuredContent: 3 }) as never,
    );
    expect(() => server.toHandlerSet()).toThrow(
      'tool count: its outputSchema must describe an object (got type "number"); wrap it in z.object({ ... })',
    );
  });

  it('refuses an inputSchema that does not describe an object, saying why', () => {
    const server = new McpServer({ name: 'n', version: '1' });
    server.registerTool('listy', { inputSchema: z.array(z.string()) } as never, ok);
    expect(() => server.toHandlerSet()).toThrow(/^tool listy: its inputSchema does not convert/);
  });
});
