/**
 * What an upstream's answer becomes for the caller: its ask addressed to the caller's client only,
 * its result without the service's own `_meta`, its JSON-RPC error passed on without posing as one
 * of the service's own endings. Pure.
 */
import { ProtocolError } from '@durable-mcp/handlers';
import {
  EXCHANGE_CANCELLED,
  EXCHANGE_EXPIRED,
  EXCHANGE_TERMINATED,
  ROUND_CAP_EXCEEDED,
} from '../exchange/ending-codes';
import { INTERNAL_ERROR } from '../protocol/json-rpc-codes';
import type { UpstreamProtocolError } from './upstream-client';

const SERVICE_META_PREFIX = 'io.durable-mcp/';
const SERVICE_ENDING_CODES = new Set([EXCHANGE_EXPIRED, ROUND_CAP_EXCEEDED, EXCHANGE_CANCELLED, EXCHANGE_TERMINATED]);

/** The upstream's ask as the caller's client is sent it: addressed to nobody else. */
export function callersAsk(inputRequests: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(inputRequests).map(([key, request]) => {
      if (typeof request !== 'object' || request === null || !('addressedTo' in request)) return [key, request];
      const { addressedTo: _notTheUpstreams, ...forCaller } = request as Record<string, unknown>;
      return [key, forCaller];
    }),
  );
}

/**
 * An upstream's result without the `_meta` keys the service's own results carry
 * (`io.durable-mcp/...`: the approvals, the pending result): only the service says those.
 */
export function withoutServiceMeta(result: Record<string, unknown>): Record<string, unknown> {
  const meta = result._meta as Record<string, unknown> | undefined;
  if (!meta || !Object.keys(meta).some((key) => key.startsWith(SERVICE_META_PREFIX))) return result;
  const kept = Object.fromEntries(Object.entries(meta).filter(([key]) => !key.startsWith(SERVICE_META_PREFIX)));
  return { ...result, _meta: kept };
}

/**
 * An upstream's JSON-RPC error as the call's own: its code and data, the message naming the
 * upstream. A code the service gives its own endings (an expiry, the round cap, a cancel, a
 * termination) would record the exchange as ended that way: it becomes -32603, the upstream's code in `data`.
 */
export function passedOn(upstream: string, error: UpstreamProtocolError): ProtocolError {
  const message = `upstream ${upstream}: ${error.message}`;
  if (!SERVICE_ENDING_CODES.has(error.code)) return new ProtocolError(error.code, message, error.data);
  return new ProtocolError(INTERNAL_ERROR, message, { upstreamCode: error.code, upstreamData: error.data });
}
