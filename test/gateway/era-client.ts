/**
 * A caller of either era, as the gateway's tests drive it: the official TypeScript client 2.x
 * pinned to 2026-07-28 (../support/modern-client.ts), or the 1.x SDK's client in a 2025-11-25
 * session on Streamable HTTP. With `elicit`, it declares forms and answers each one it is asked
 * with what `elicit` returns. A JSON-RPC error is thrown as each client throws it (the 1.x client
 * puts "MCP error <code>: " before the message it was sent).
 */
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { connectModernClient } from '../support/modern-client';

export const ERAS = ['2026-07-28', '2025-11-25'] as const;
export type Era = (typeof ERAS)[number];

export interface ToolResult {
  content: Array<{ type: string; text: string }>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export interface EraClient {
  /** The names of the tools it is listed. */
  listed(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  close(): Promise<void>;
}

/** The answer to a form: `action` and `content`, as an elicitation result carries them. */
export type FormAnswer = () => Promise<{ action: 'accept'; content: Record<string, unknown> }>;

export async function connectEraClient(era: Era, url: string, elicit?: FormAnswer): Promise<EraClient> {
  if (era === '2026-07-28') {
    const client = await connectModernClient(url, elicit ? () => elicit() : {});
    return {
      listed: async () => (await client.listTools()).tools.map((tool) => tool.name),
      call: async (name, args) => (await client.callTool({ name, arguments: args })) as ToolResult,
      close: () => client.close(),
    };
  }
  const client = new LegacyClient(
    { name: 'desk', version: '1.0.0' },
    { capabilities: elicit ? { elicitation: {} } : {} },
  );
  if (elicit) client.setRequestHandler(ElicitRequestSchema, () => elicit());
  await client.connect(new LegacyTransport(new URL(url)));
  return {
    listed: async () => (await client.listTools()).tools.map((tool) => tool.name),
    call: async (name, args) => (await client.callTool({ name, arguments: args }, CallToolResultSchema)) as ToolResult,
    close: () => client.close(),
  };
}

/** The tool names a new client of `era` is listed (a client keeps the listing it read). */
export async function listedTo(era: Era, url: string): Promise<string[]> {
  const client = await connectEraClient(era, url);
  try {
    return await client.listed();
  } finally {
    await client.close();
  }
}
