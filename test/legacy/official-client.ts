/**
 * The official 1.x client (`@modelcontextprotocol/sdk`) as the legacy tests drive it: connected
 * over Streamable HTTP or the 2024-11-05 HTTP+SSE transport, with the peers it declares (elicitation,
 * sampling, roots), recording every server-to-client request it was sent and what it could not take.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type Root,
} from '@modelcontextprotocol/sdk/types.js';
import type { JsonRpcId } from '../support/legacy-client';

export const CALL_TIMEOUT = { timeout: 30_000 };
export const DEPLOY_ARGS = { service: 'checkout', version: '2.1.0', environment: 'production' };

export type TransportKind = 'streamable-http' | 'sse';

export interface Peers {
  elicit?: (params: ElicitRequest['params']) => ElicitResult;
  sample?: (params: CreateMessageRequestParams) => CreateMessageResult;
  roots?: Root[];
}
export type CreateMessageRequestParams = { messages: unknown[]; maxTokens?: number };

/** What the client was asked: every server-to-client request it handled, and what it could not. */
export interface Seen {
  elicit: Array<ElicitRequest['params']>;
  sample: CreateMessageRequestParams[];
  roots: number;
  /** Ids of the server-to-client requests the registered handlers answered. */
  requestIds: JsonRpcId[];
  /** Methods of server-to-client requests no handler was registered for. */
  unexpected: string[];
  logs: Array<{ level: string; data?: unknown }>;
  transportErrors: Error[];
}

export async function connectOfficialClient(url: string, kind: TransportKind, peers: Peers) {
  const { elicit, sample, roots } = peers;
  const client = new Client(
    { name: 'durable-mcp-legacy-tests', version: '1.0.0' },
    {
      capabilities: {
        ...(elicit ? { elicitation: {} } : {}),
        ...(sample ? { sampling: {} } : {}),
        ...(roots ? { roots: {} } : {}),
      },
    },
  );
  const seen: Seen = {
    elicit: [],
    sample: [],
    roots: 0,
    requestIds: [],
    unexpected: [],
    logs: [],
    transportErrors: [],
  };
  if (elicit) {
    client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
      seen.requestIds.push(extra.requestId);
      seen.elicit.push(request.params);
      return elicit(request.params);
    });
  }
  if (sample) {
    client.setRequestHandler(CreateMessageRequestSchema, async (request, extra) => {
      seen.requestIds.push(extra.requestId);
      const params = request.params as unknown as CreateMessageRequestParams;
      seen.sample.push(params);
      return sample(params);
    });
  }
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async (_request, extra) => {
      seen.requestIds.push(extra.requestId);
      seen.roots += 1;
      return { roots };
    });
  }
  client.fallbackRequestHandler = async (request) => {
    seen.unexpected.push(request.method);
    throw new McpError(-32601, `Method not found: ${request.method}`);
  };
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    seen.logs.push(notification.params);
  });
  const transport =
    kind === 'sse'
      ? new SSEClientTransport(new URL(url.replace(/\/mcp$/, '/sse')))
      : new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  // Set after connect: Protocol.connect installs its own transport.onerror, which forwards here.
  client.onerror = (error) => seen.transportErrors.push(error);
  return { client, transport, seen };
}

export const assistant = (text: string): CreateMessageResult => ({
  role: 'assistant',
  content: { type: 'text', text },
  model: 'test-model',
  stopReason: 'endTurn',
});

/** Capability names in `data.requiredCapabilities`, whether it is an object (as in the modern era) or a list. */
export function requiredCapabilityNames(data: unknown): string[] {
  const required = (data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
  if (Array.isArray(required)) return required.map(String).sort();
  if (required && typeof required === 'object') return Object.keys(required).sort();
  return [];
}

export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}
