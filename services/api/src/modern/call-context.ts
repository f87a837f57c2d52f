/** The per-leg context a 2026-07-28 method handler runs in. */
import type { Principal } from '../../../../lib/exchange/principal';
import type { ResponseChannel } from '../http/response-channel';
import type { JsonRpcId } from '../../../../lib/protocol/json-rpc-envelope';

/** What a method handler gets besides its params: the client's abort, the response channel and who calls. */
export interface CallContext {
  signal: AbortSignal;
  channel: ResponseChannel;
  /** The caller the bearer gate established (the anonymous principal with AUTH_MODE=off). */
  caller: Principal;
  /** The JSON-RPC id of the request (a `subscriptions/listen` stream is named by it). */
  requestId: JsonRpcId;
}
