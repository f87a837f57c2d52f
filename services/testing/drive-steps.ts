/**
 * The steps of a drive that have nothing to answer: a leg refused on its own (the exchange unchanged)
 * and an exchange that has ended (a result, or an error that ends it).
 */
import type { RoundOutcome } from '../../lib/exchange/types';
import { fromOutcome } from '../../lib/protocol/error-catalog';
import { RpcError } from '../../lib/protocol/rpc-error';
import type { HandlerNotification, JsonRpcError, Step } from './drive-types';

/** A JSON-RPC error as the client gets it. */
export const toJson = (error: RpcError): JsonRpcError => error.toJson();

/** A leg refused on its own: the exchange is unchanged. */
export function refusal<R>(exchangeId: string, round: number, asks: number, error: JsonRpcError): Step<R> {
  return {
    exchangeId,
    round,
    kind: 'error',
    error,
    refused: true,
    ended: false,
    ignoredKeys: [],
    notifications: [],
    asks,
    answer: () =>
      Promise.reject(new Error(`round ${round}: this step was refused (${error.message}); nothing to answer`)),
  };
}

/** The step of an exchange that has ended: nothing left to answer. */
export function ended<R>(
  exchangeId: string,
  round: number,
  asks: number,
  outcome: Exclude<RoundOutcome, { kind: 'ask' }>,
  notifications: HandlerNotification[],
  ignoredKeys: string[] = [],
): Step<R> {
  const error = outcome.kind === 'error' ? toJson(fromOutcome(outcome.error)) : undefined;
  return {
    exchangeId,
    round,
    kind: outcome.kind,
    ...(outcome.kind === 'complete' ? { result: outcome.result as R } : {}),
    ...(error ? { error } : {}),
    refused: false,
    ended: true,
    ignoredKeys,
    notifications,
    asks,
    answer: () => Promise.reject(new Error(`round ${round}: the exchange has ended; nothing to answer`)),
  };
}
