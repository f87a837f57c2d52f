/** Writes an RpcError, rendered for its era, as the HTTP response: status, headers, envelope. */
import type { Response } from 'express';
import { type Era, renderErrorResponse } from '../../../../lib/protocol/error-response';
import type { JsonRpcId } from '../../../../lib/protocol/json-rpc-envelope';
import type { RpcError } from '../../../../lib/protocol/rpc-error';

export function replyWithError(res: Response, era: Era, error: RpcError, id?: JsonRpcId): void {
  const { status, headers, body } = renderErrorResponse(era, error, id);
  res.set(headers).status(status).json(body);
}
