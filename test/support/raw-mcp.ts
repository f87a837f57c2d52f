/**
 * A bare 2026-07-28 HTTP caller for tests that need exact control over each leg (the same retry
 * twice, a leg after a timeout). End-to-end behaviour is tested with the official client instead.
 */
export interface RpcReply {
  status: number;
  body: { jsonrpc: '2.0'; id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
}

let nextId = 1;

function targetOf(method: string, params: Record<string, unknown>): string | undefined {
  if (method === 'resources/read') return params.uri as string;
  if (method === 'tools/call' || method === 'prompts/get') return params.name as string;
  return undefined;
}

export async function rawCall(
  url: string,
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = { elicitation: {} },
  signal?: AbortSignal,
): Promise<RpcReply> {
  const body = {
    jsonrpc: '2.0',
    id: nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': capabilities,
      },
    },
  };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(targetOf(method, params) !== undefined ? { 'mcp-name': targetOf(method, params) } : {}),
    },
    body: JSON.stringify(body),
    signal,
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as RpcReply['body'] };
  } catch {
    throw new Error(`HTTP ${response.status}: not JSON: ${text.slice(0, 200)}`);
  }
}

export const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

/** POSTs an arbitrary body with arbitrary headers, for tests of malformed requests. */
export async function rawPost(url: string, body: string | object, headers: Record<string, string>): Promise<RpcReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as RpcReply['body'] };
}

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

export const MODERN_HEADERS = { 'mcp-protocol-version': '2026-07-28' };

/** True for a state-only result: the server's "still working, come back with this requestState". */
export const isComeBack = (reply: RpcReply): boolean =>
  reply.body.result?.resultType === 'input_required' && reply.body.result.inputRequests === undefined;

/** Sends a leg, then comes back with each state-only result's requestState until a real answer arrives. */
export async function callUntilAnswered(url: string, method: string, params: Record<string, unknown>, maxLegs = 60): Promise<RpcReply> {
  let reply = await rawCall(url, method, params);
  for (let legs = 1; isComeBack(reply) && legs < maxLegs; legs += 1) {
    reply = await rawCall(url, method, { ...params, requestState: reply.body.result!.requestState });
  }
  return reply;
}
