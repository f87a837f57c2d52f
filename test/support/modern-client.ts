/** The official MCP client (2.x), pinned to 2026-07-28, with handlers for the embedded requests. */
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from '@modelcontextprotocol/client';

export type ElicitAnswer = (params: {
  message: string;
  requestedSchema?: unknown;
}) => Record<string, unknown> | Promise<Record<string, unknown>>;

export interface ClientPeers {
  elicit?: ElicitAnswer;
  sample?: (params: { messages: unknown[] }) => Record<string, unknown>;
  roots?: Array<{ uri: string; name?: string }>;
}

/** `authProvider`: the client's OAuth, for a server that wants bearer tokens (it answers 401 until it has one). */
export async function connectModernClient(
  url: string,
  peers: ElicitAnswer | ClientPeers,
  options: { authProvider?: OAuthClientProvider } = {},
): Promise<Client> {
  const { elicit, sample, roots } = typeof peers === 'function' ? ({ elicit: peers } as ClientPeers) : peers;
  const client = new Client(
    { name: 'durable-mcp-tests', version: '1.0.0' },
    {
      capabilities: {
        ...(elicit ? { elicitation: {} } : {}),
        ...(sample ? { sampling: {} } : {}),
        ...(roots ? { roots: {} } : {}),
      },
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  if (elicit) {
    client.setRequestHandler(
      'elicitation/create',
      async (request) => (await elicit(request.params as { message: string; requestedSchema?: unknown })) as never,
    );
  }
  if (sample)
    client.setRequestHandler(
      'sampling/createMessage',
      async (request) => sample(request.params as { messages: unknown[] }) as never,
    );
  if (roots) client.setRequestHandler('roots/list', async () => ({ roots }) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), options));
  return client;
}
