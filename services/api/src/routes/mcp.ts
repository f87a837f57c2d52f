/**
 * POST /mcp: one JSON-RPC message per request, answered with one JSON response.
 *
 * The body is read raw and parsed here so malformed JSON gets -32700 and an oversized body 413,
 * rather than express's HTML error pages. Every error echoes the request id when one was readable.
 */
import express, { type Request, type Response, Router } from 'express';
import type { Logger } from '../../../../lib/log';
import { INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR } from '../../../../lib/protocol/json-rpc-codes';
import { RpcError } from '../../../../lib/protocol/rpc-error';
import { createResponseChannel } from '../http/response-channel';
import type { ModernDispatch } from '../modern/modern-methods';

type JsonRpcId = string | number | null;

interface Incoming {
  id: JsonRpcId;
  method: string;
  params: unknown;
  isNotification: boolean;
}

function readMessage(body: unknown): Incoming {
  let message: unknown;
  try {
    message = JSON.parse(Buffer.isBuffer(body) ? body.toString('utf8') : String(body ?? ''));
  } catch {
    throw new RpcError(PARSE_ERROR, 'Parse error: the body is not valid JSON');
  }
  const m = message as Record<string, unknown> | null;
  if (!m || typeof m !== 'object' || Array.isArray(m)) throw new RpcError(INVALID_REQUEST, 'Invalid request: expected one JSON-RPC object');
  const id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null;
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string') {
    throw Object.assign(new RpcError(INVALID_REQUEST, 'Invalid request: jsonrpc must be "2.0" and method a string'), { id });
  }
  return { id, method: m.method, params: m.params, isNotification: !('id' in m) };
}

export function mcpRouter(deps: { dispatch: ModernDispatch; maxBodyBytes: number; log: Logger }): Router {
  const router = Router();
  router.post(
    '/mcp',
    express.raw({ type: () => true, limit: deps.maxBodyBytes }),
    async (req: Request, res: Response) => {
      let id: JsonRpcId = null;
      const abort = new AbortController();
      res.on('close', () => abort.abort());
      const channel = createResponseChannel(req, res);
      try {
        const message = readMessage(req.body);
        id = message.id;
        if (message.isNotification) {
          res.status(202).end();
          return;
        }
        const result = await deps.dispatch(req, message.method, message.params, { signal: abort.signal, channel });
        channel.finish(200, { jsonrpc: '2.0', id, result });
      } catch (caught) {
        const error =
          caught instanceof RpcError ? caught : new RpcError(INTERNAL_ERROR, 'Internal error');
        if (!(caught instanceof RpcError)) deps.log.error({ err: caught }, 'request failed');
        const errorId = (caught as { id?: JsonRpcId }).id ?? id;
        channel.finish(error.httpStatus, { jsonrpc: '2.0', id: errorId, error: error.toJson() });
      }
    },
  );
  router.all('/mcp', (_req, res) => {
    res.set('Allow', 'POST').status(405).json({ jsonrpc: '2.0', id: null, error: { code: INVALID_REQUEST, message: 'Method not allowed' } });
  });
  return router;
}
