/**
 * What `durable-mcp dev`'s front door answers itself when the service has not come back within a
 * leg's wait: the answer each era's client can go on from, as the API's own drain answers.
 *
 * - A 2026-07-28 leg that echoes a requestState and carries no answers gets a state-only result
 *   with that same requestState: the client comes back with it later, and the API verifies it as
 *   it would have (it is sealed and bound to the exchange; nothing here opens it).
 * - Anything else gets HTTP 503 with `Retry-After` and a JSON-RPC error, and its connection
 *   closes: a first leg (there is no exchange, so no state to give), a leg carrying
 *   `inputResponses` (a state-only result would make the client drop its answers), every
 *   handshake-era request and stream resumption (`GET` with `Last-Event-ID`).
 */
import { renderErrorResponse } from '../../../lib/protocol/error-response';
import { serviceRestarting } from '../../../lib/protocol/error-catalog';
import type { JsonRpcId } from '../../../lib/protocol/json-rpc-envelope';
import { PROTOCOL_VERSION_META_KEY, SERVER_INFO, SERVER_INFO_META_KEY } from '../../../lib/protocol/modern';
import { stateOnlyResult } from '../../../lib/protocol/wire-asks';

export interface ComeBackReply {
  status: number;
  headers: Record<string, string>;
  body: object;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is string | number => typeof value === 'string' || typeof value === 'number';

function parse(body: string): Record<string, unknown> | undefined {
  try {
    const message: unknown = JSON.parse(body);
    return isObject(message) ? message : undefined;
  } catch {
    return undefined;
  }
}

/** The reply to one HTTP request (`method`, `path` without the query, its body as text). */
export function comeBackReply(method: string, path: string, body: string, retryAfterS: number): ComeBackReply {
  const message = method === 'POST' && path === '/mcp' ? parse(body) : undefined;
  const id: JsonRpcId = message && isId(message.id) ? message.id : null;
  const params = message?.params;
  if (
    id !== null &&
    isObject(params) &&
    isObject(params._meta) &&
    PROTOCOL_VERSION_META_KEY in params._meta &&
    typeof params.requestState === 'string' &&
    params.inputResponses === undefined
  ) {
    return {
      status: 200,
      headers: { Connection: 'close' },
      body: {
        jsonrpc: '2.0',
        id,
        result: { ...stateOnlyResult(params.requestState), _meta: { [SERVER_INFO_META_KEY]: SERVER_INFO } },
      },
    };
  }
  const { status, headers, body: envelope } = renderErrorResponse('transport', serviceRestarting(retryAfterS), id);
  return { status, headers, body: envelope };
}
