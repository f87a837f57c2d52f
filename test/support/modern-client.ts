/** The official MCP client (2.x), pinned to 2026-07-28, with an elicitation handler registered. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export type ElicitAnswer = (params: { message: string; requestedSchema?: unknown }) => Record<string, unknown> | Promise<Record<string, unknown>>;

export async function connectModernClient(url: string, answer: ElicitAnswer): Promise<Client> {
  const client = new Client(
    { name: 'durable-mcp-tests', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    return (await answer(request.params as { message: string; requestedSchema?: unknown })) as never;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}
