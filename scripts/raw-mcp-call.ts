/**
 * A bare 2026-07-28 HTTP caller: one JSON-RPC request with the modern `_meta` envelope and
 * headers, and its JSON reply, for the bench and for tests that need exact control over each leg.
 */
export interface RpcReply {
  status: number;
  /** The response's headers, on a reply `rawCall` read. */
  headers?: Headers;
  body: {
    jsonrpc: '2.0';
    id: unknown;
    result?: Record<string, unknown>;
    error?: { code: number; message: string; data?: unknown };
  };
}

let nextId = 1;

function targetOf(method: string, params: Record<string, unknown>): string | undefined {
  if (method === 'resources/read') return params.uri as string;
  if (method === 'tools/call' || method === 'prompts/get') return params.name as string;
  // The Tasks extension's routing header (SEP-2663): the task id.
  if (method === 'tasks/get' || method === 'tasks/update' || method === 'tasks/cancel') return params.taskId as string;
  return undefined;
}

export interface RawCallOptions {
  signal?: AbortSignal;
  /** Sent besides the MCP headers (an `X-Request-Id`, say). */
  headers?: Record<string, string>;
  /** More `_meta` fields (e.g. the client's `io.modelcontextprotocol/clientInfo`). */
  meta?: Record<string, unknown>;
}

/** One 2026-07-28 request as it goes on the wire: its headers and its JSON body. */
export function mcpRequestOf(
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = { elicitation: {} },
  options: Omit<RawCallOptions, 'signal'> = {},
): { headers: Record<string, string>; body: string } {
  const { headers = {}, meta = {} } = options;
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        ...meta,
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    },
  };
  return {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(targetOf(method, params) !== undefined ? { 'mcp-name': targetOf(method, params)! } : {}),
      ...headers,
    },
    body: JSON.stringify(body),
  };
}

export async function rawCall(
  url: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = { elicitation: {} },
  options: RawCallOptions = {},
): Promise<RpcReply> {
  const { headers, body } = mcpRequestOf(method, params, capabilities, options);
  const response = await fetch(url, { method: 'POST', headers, body, signal: options.signal });
  const text = await response.text();
  try {
    return { status: response.status, headers: response.headers, body: JSON.parse(text) as RpcReply['body'] };
  } catch {
    throw new Error(`HTTP ${response.status}: not JSON: ${text.slice(0, 200)}`);
  }
}
