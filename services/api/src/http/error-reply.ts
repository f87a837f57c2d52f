/**
 * Writes an RpcError, rendered for its era, as the HTTP response: status, headers, envelope. Every
 * JSON-RPC error the API answers with is rendered through `renderAnsweredError`, which counts it
 * (`mcp_jsonrpc_errors_total`).
 */
import type { Response } from 'express';
import { apiMetrics } from '../../../../lib/metrics/api-metrics';
import { type Era, type ErrorResponse, renderErrorResponse } from '../../../../lib/protocol/error-response';
import type { JsonRpcId } from '../../../../lib/protocol/json-rpc-envelope';
import type { RpcError } from '../../../../lib/protocol/rpc-error';

/** The error's response for its era, counted as one error answered. */
export function renderAnsweredError(era: Era, error: RpcError, id: JsonRpcId | undefined): ErrorResponse {
  apiMetrics.rpcError(era, error.code);
  return renderErrorResponse(era, error, id);
}

export function replyWithError(res: Response, era: Era, error: RpcError, id?: JsonRpcId): void {
  const { status, headers, body } = renderAnsweredError(era, error, id);
  res.set(headers).status(status).json(body);
}
