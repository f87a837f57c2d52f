/**
 * The MCP clients of two JavaScript agent frameworks under test, in this process, each called the
 * way an agent calls it: through the tools it hands out, with what its caller gets back.
 *
 * - Mastra's `MCPClient` (`@mastra/mcp` 2.x): `listTools()` gives tools named `<server>_<tool>`;
 *   `tool.execute(args)` returns the CallToolResult, and throws a `MastraError` with the result's
 *   text when it is an `isError` result (`onToolError: 'throw'`, its default). Its one input hook
 *   is `inputRequests` (elicitation); it has none for sampling or roots.
 * - LangChain's `MultiServerMCPClient` (`@langchain/mcp-adapters`): `getTools()` gives LangChain
 *   tools; `tool.invoke(args)` returns the result's content (the text itself when it is one text
 *   block), and throws a `ToolException` with the text of an `isError` result. It has no hook for
 *   elicitation, sampling or roots.
 *
 * Each keeps its defaults but the request timeout, the SDKs' 60 s by default, shortened like the
 * TypeScript clients': Mastra's `timeout`; for LangChain, which leaves the SDK's timeout alone
 * unless a tool is given one, the per-call `metadata.timeoutMs` its tools hand the SDK as that
 * timeout. Not `defaultToolTimeout` (or `timeout` on the call): LangChain also turns that into an
 * abort signal the 1.x SDK never lets go of, so it fires after the call has ended and sends
 * `notifications/cancelled` for a call already answered.
 */
import { randomUUID } from 'node:crypto';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { MCPClient } from '@mastra/mcp';
import { PEERS, resultOf, thrown, type Connect, type ConnectedClient } from './connected-client';
import type { Observation } from './observation';

const SERVER = 'service';

/** Mastra's `MCPClient`, one server, its form answered with the peers' answers. */
export function mastra(options: { timeoutMs: number }): Connect {
  return async (url) => {
    const client = new MCPClient({
      id: `compatibility-${randomUUID()}`,
      timeout: options.timeoutMs,
      servers: {
        [SERVER]: {
          url: new URL(url),
          inputRequests: async ({ params }) =>
            'message' in params && String(params.message).startsWith(PEERS.declinePrefix)
              ? { action: 'decline' }
              : { action: 'accept', content: { name: PEERS.name } },
        },
      },
    });
    const prefix = `${SERVER}_`;
    const tools = async () => await client.listTools();
    await tools(); // connects, as an agent's first look at its tools does
    return {
      listTools: async () => Object.keys(await tools()).map((name) => name.slice(prefix.length)),
      async call(name, args = {}) {
        const tool = (await tools())[`${prefix}${name}`];
        if (!tool?.execute) return { kind: 'error', name: 'Error', message: `no tool ${name}` };
        try {
          // An agent passes its run's context (observability, abort signal, run id); the MCP tool
          // reads none of it but the signal and run id, neither of which a scenario needs.
          return mastraOutput(await tool.execute(args, {} as Parameters<typeof tool.execute>[1]));
        } catch (error) {
          return thrown(error);
        }
      },
      close: () => client.disconnect(),
    };
  };
}

/** What Mastra's tool returned: the CallToolResult, or a validation error it returns instead of throwing. */
function mastraOutput(output: unknown): Observation {
  const value = output as { content?: unknown; error?: unknown; message?: unknown } | null;
  if (value && Array.isArray(value.content)) return resultOf(value as Parameters<typeof resultOf>[0]);
  if (value && value.error === true)
    return { kind: 'error', name: 'ValidationError (returned)', message: String(value.message) };
  return { kind: 'result', text: JSON.stringify(output), isError: false };
}

/** LangChain's `MultiServerMCPClient`, one server over Streamable HTTP, as configured by default. */
export function langchain(options: { timeoutMs: number }): Connect {
  return async (url) => {
    const client = new MultiServerMCPClient({ mcpServers: { [SERVER]: { url } } });
    const tools = await client.getTools();
    const connected: ConnectedClient = {
      listTools: async () => (await client.getTools()).map((t) => t.name),
      async call(name, args = {}) {
        const tool = tools.find((t) => t.name === name);
        if (!tool) return { kind: 'error', name: 'Error', message: `no tool ${name}` };
        try {
          return langchainOutput(await tool.invoke(args, { metadata: { timeoutMs: options.timeoutMs } }));
        } catch (error) {
          return thrown(error);
        }
      },
      close: () => client.close(),
    };
    return connected;
  };
}

/**
 * What LangChain's tool returned to its caller: the text itself (one text block), or content blocks
 * (a text block carries the result's `_meta` as `meta` when there is one). Never an error: those it
 * throws.
 */
function langchainOutput(content: unknown): Observation {
  if (typeof content === 'string') return { kind: 'result', text: content, isError: false };
  const blocks = (Array.isArray(content) ? content : [content]) as Array<{
    text?: string;
    meta?: Record<string, unknown>;
  }>;
  const meta = blocks.find((b) => b?.meta)?.meta;
  return resultOf({ content: blocks, ...(meta ? { _meta: meta } : {}) });
}
