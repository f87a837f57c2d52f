/** The two JSON-RPC response envelopes the API writes: a result and an error, each echoing its request id. */
export type JsonRpcId = string | number | null;

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export function resultEnvelope(id: JsonRpcId | undefined, result: unknown) {
  return { jsonrpc: '2.0' as const, id: id ?? null, result };
}

export function errorEnvelope(id: JsonRpcId | undefined, error: JsonRpcErrorObject) {
  return { jsonrpc: '2.0' as const, id: id ?? null, error };
}
