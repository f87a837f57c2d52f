/**
 * The official 1.x client (`@modelcontextprotocol/sdk`) in a 2025-11-25 session over Streamable
 * HTTP, declaring elicitation and answering every `elicitation/create` with `answer`; the messages
 * it was asked are kept in `asked`, in order.
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';

export interface ElicitingLegacyClient {
  client: LegacyClient;
  transport: StreamableHTTPClientTransport;
  asked: string[];
}

export async function connectElicitingLegacyClient(url: string, answer: ElicitResult): Promise<ElicitingLegacyClient> {
  const client = new LegacyClient(
    { name: 'durable-mcp-tests', version: '1.0.0' },
    { capabilities: { elicitation: {} } },
  );
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params.message);
    return answer;
  });
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  return { client, transport, asked };
}
