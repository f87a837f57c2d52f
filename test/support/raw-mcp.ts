/**
 * Bare 2026-07-28 HTTP helpers for tests that need exact control over each leg (the same retry
 * twice, a leg after a timeout, a malformed body). End-to-end behaviour is tested with the
 * official client instead.
 */
import { rawCall, type RpcReply } from '../../scripts/raw-mcp-call';

export { rawCall, type RpcReply };

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

/**
 * True for a state-only result: the server's "still working, come back with this requestState"
 * (`inputRequests: {}`, nothing to answer).
 */
export const isComeBack = (reply: RpcReply): boolean =>
  reply.body.result?.resultType === 'input_required' &&
  Object.keys((reply.body.result.inputRequests as object | undefined) ?? {}).length === 0;

/** Sends a leg, then comes back with each state-only result's requestState until a real answer arrives. */
export async function callUntilAnswered(
  url: string,
  method: string,
  params: Record<string, unknown>,
  maxLegs = 60,
): Promise<RpcReply> {
  let reply = await rawCall(url, method, params);
  for (let legs = 1; isComeBack(reply) && legs < maxLegs; legs += 1) {
    reply = await rawCall(url, method, { ...params, requestState: reply.body.result!.requestState });
  }
  return reply;
}
