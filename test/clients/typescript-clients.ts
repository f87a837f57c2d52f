/**
 * The TypeScript clients under test, in this process: the official 2.x client
 * (`@modelcontextprotocol/client`), pinned to 2026-07-28 or negotiating, and the 1.x SDK's client
 * (`@modelcontextprotocol/sdk`), each with the peers of connected-client.ts. `timeoutMs` is the
 * request timeout each call is given (both default to 60 s; the tests shorten it with the service's
 * holds), `maxRounds` the 2.x client's retry loop (`inputRequired.maxRounds`, 10 by default).
 */
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Transport1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { PEERS, resultOf, thrown, type Connect, type ConnectedClient } from './connected-client';

const CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };
const elicited = (message: string) =>
  message.startsWith(PEERS.declinePrefix)
    ? { action: 'decline' as const }
    : { action: 'accept' as const, content: { name: PEERS.name } };
const sampled = {
  role: 'assistant' as const,
  content: { type: 'text' as const, text: PEERS.sampled },
  model: 'test-model',
  stopReason: 'endTurn',
};

export interface TypeScriptClientOptions {
  timeoutMs: number;
  maxRounds: number;
}

/** The official 2.x client; `pinned` to 2026-07-28, or negotiating as it does by default. */
export function typescript2(pinned: boolean, options: TypeScriptClientOptions): Connect {
  return async (url) => {
    const client = new Client2(
      { name: 'compatibility', version: '1.0.0' },
      {
        capabilities: CAPABILITIES,
        inputRequired: { maxRounds: options.maxRounds },
        ...(pinned ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
      },
    );
    client.setRequestHandler(
      'elicitation/create',
      async (request) => elicited(String((request.params as { message?: unknown }).message)) as never,
    );
    client.setRequestHandler('sampling/createMessage', async () => sampled as never);
    client.setRequestHandler('roots/list', async () => ({ roots: [PEERS.root] }) as never);
    await client.connect(new Transport2(new URL(url)));
    return connected({
      list: async () => (await client.listTools()).tools.map((t) => t.name),
      call: (name, args) => client.callTool({ name, arguments: args }, { timeout: options.timeoutMs }),
      close: () => client.close(),
    });
  };
}

/** The 1.x SDK's client (a 2025-11-25 session). */
export function typescript1(options: Pick<TypeScriptClientOptions, 'timeoutMs'>): Connect {
  return async (url) => {
    const client = new Client1({ name: 'compatibility', version: '1.0.0' }, { capabilities: CAPABILITIES });
    client.setRequestHandler(ElicitRequestSchema, async (request) => elicited(request.params.message));
    client.setRequestHandler(CreateMessageRequestSchema, async () => sampled);
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [PEERS.root] }));
    await client.connect(new Transport1(new URL(url)));
    return connected({
      list: async () => (await client.listTools()).tools.map((t) => t.name),
      call: (name, args) =>
        client.callTool({ name, arguments: args }, undefined, { timeout: options.timeoutMs }) as Promise<
          Record<string, unknown>
        >,
      close: () => client.close(),
    });
  };
}

function connected(client: {
  list(): Promise<string[]>;
  call(name: string, args: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}): ConnectedClient {
  return {
    listTools: () => client.list(),
    call: (name, args = {}) =>
      client.call(name, args).then(
        (result) => resultOf(result as Parameters<typeof resultOf>[0]),
        (error: unknown) => thrown(error),
      ),
    close: () => client.close(),
  };
}
