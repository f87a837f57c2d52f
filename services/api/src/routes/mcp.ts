/**
 * The MCP endpoint for both eras.
 *
 * POST /mcp carries one JSON-RPC message. Era detection follows the spec: a request with the
 * 2026-07-28 `_meta` envelope is modern; `initialize`, an `Mcp-Session-Id` or a legacy
 * `MCP-Protocol-Version` header is legacy (the legacy endpoint). GET and DELETE /mcp exist
 * only for legacy sessions; /sse and /messages are the 2024-11-05 HTTP+SSE transport.
 *
 * The body is read raw so malformed JSON gets -32700 and an oversized body 413, rather than
 * express's HTML error pages; its envelope is checked against the SDK's JSON-RPC schemas
 * (lib/protocol/inbound-message.ts). Every error echoes the request id when one was readable.
 */
import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import type { Logger } from '../../../../lib/log';
import { bodyNotJson, internalError, methodNotAllowed } from '../../../../lib/protocol/error-catalog';
import type { Era } from '../../../../lib/protocol/error-response';
import { readInboundMessage, type MessageBudget } from '../../../../lib/protocol/inbound-message';
import { LEGACY_PROTOCOL_VERSIONS, SESSION_HEADER } from '../../../../lib/protocol/legacy';
import { resultEnvelope, type JsonRpcId } from '../../../../lib/protocol/json-rpc-envelope';
import { RpcError } from '../../../../lib/protocol/rpc-error';
import { withLegSpan } from '../../../../lib/tracing/leg-span';
import { renderAnsweredError, replyWithError } from '../http/error-reply';
import { callerOf } from '../auth/caller';
import { createResponseChannel } from '../http/response-channel';
import type { IncomingMessage, LegacyEndpoint } from '../legacy/legacy-endpoint';
import { hasModernMeta } from '../modern/validate-request';
import type { ModernDispatch } from '../modern/modern-methods';

// Why a request's waits end. Nothing reads them; shared reasons spare every request the
// DOMException (and its stack trace) that `abort()` without one creates.
const RESPONSE_CLOSED = new Error('the response closed');
const DRAINING = new Error('the process is draining');

export type { MessageBudget };

/** One JSON-RPC message from the raw body, its envelope checked against the SDK's schemas. */
function readMessage(body: unknown, budget: MessageBudget): IncomingMessage {
  return readInboundMessage(Buffer.isBuffer(body) ? body.toString('utf8') : String(body ?? ''), budget);
}

function isLegacy(req: Request, message: IncomingMessage): boolean {
  if (req.get(SESSION_HEADER) !== undefined) return true;
  if (hasModernMeta(message.params)) return false;
  if (message.method === 'initialize') return true;
  const version = req.get('mcp-protocol-version');
  return version !== undefined && (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/**
 * Answers with a JSON-RPC error rendered for `era` (see error-response.ts for the statuses). The
 * modern and pre-era answers go through the response channel, which also handles a response
 * already streaming; a legacy stream already open is just ended.
 */
function sendError(
  res: Response,
  log: Logger,
  caught: unknown,
  id: JsonRpcId,
  era: Era,
  finish?: (status: number, body: object) => void,
) {
  const error = caught instanceof RpcError ? caught : internalError();
  if (!(caught instanceof RpcError)) log.error({ err: caught }, 'request failed');
  const requestId = (caught as { id?: JsonRpcId }).id ?? id;
  if (finish) {
    const { status, headers, body } = renderAnsweredError(era, error, requestId);
    if (!res.headersSent) res.set(headers);
    finish(status, body);
  } else if (!res.headersSent) replyWithError(res, era, error, requestId);
  else res.end();
}

export interface McpRouterDeps {
  dispatch: ModernDispatch;
  legacy: LegacyEndpoint;
  maxBodyBytes: number;
  budget: MessageBudget;
  /** What a leg's notification stream may leave unread before it is closed. */
  sseMaxBufferedBytes: number;
  /** Aborted when the process starts to drain: waiting legs answer "come back" at once. */
  draining: AbortSignal;
  log: Logger;
}

export function mcpRouter(deps: McpRouterDeps): Router {
  const router = Router();
  const raw = express.raw({ type: () => true, limit: deps.maxBodyBytes });
  // Only a body declared JSON is read. A browser sends `text/plain`, form or multipart bodies
  // cross-site without a CORS preflight, so accepting them would let any web page start tool
  // calls on a server its visitor can reach; `application/json` needs the preflight, which
  // ALLOWED_ORIGINS answers. Refused before the body is read: 415 and -32600.
  const body: RequestHandler = (req, res, next) => {
    if (!req.is('application/json')) return replyWithError(res, 'transport', bodyNotJson(req.get('content-type')));
    raw(req, res, next);
  };

  router.post('/mcp', body, async (req: Request, res: Response) => {
    let id: JsonRpcId = null;
    const abort = new AbortController();
    res.on('close', () => abort.abort(RESPONSE_CLOSED));
    // A draining process ends each wait now; the leg answers "come back" and the client retries elsewhere.
    const drain = () => abort.abort(DRAINING);
    deps.draining.addEventListener('abort', drain, { once: true });
    res.on('close', () => deps.draining.removeEventListener('abort', drain));
    const channel = createResponseChannel(req, res, deps.sseMaxBufferedBytes, (buffered) =>
      deps.log.warn(
        { bufferedBytes: buffered, limit: deps.sseMaxBufferedBytes },
        'SSE consumer left too much unread; response stream closed',
      ),
    );
    let era: Era = 'transport'; // until the message says which era it is
    try {
      const message = readMessage(req.body, deps.budget);
      id = message.id ?? null;
      const header = (name: string) => req.get(name);
      if (isLegacy(req, message)) {
        era = 'legacy';
        // Requests and responses (answers) get a span each (traces: lib/tracing); notifications do not.
        if (message.id === undefined) await deps.legacy.post(req, res, message);
        else await withLegSpan(message, 'legacy', header, () => deps.legacy.post(req, res, message));
        return;
      }
      if (message.id === undefined) {
        res.status(202).end(); // a notification (or a stray response) needs no answer
        return;
      }
      era = 'modern';
      const result = await withLegSpan(message, 'modern', header, () =>
        deps.dispatch(req, message.method ?? '', message.params, {
          signal: abort.signal,
          channel,
          caller: callerOf(res),
          requestId: id,
        }),
      );
      channel.finish(200, resultEnvelope(id, result));
    } catch (caught) {
      sendError(res, deps.log, caught, id, era, era === 'legacy' ? undefined : channel.finish);
    }
  });

  router.get('/mcp', async (req, res) => {
    if (req.get(SESSION_HEADER) === undefined) {
      replyWithError(res, 'transport', methodNotAllowed('POST', 'this endpoint streams only within a session'));
      return;
    }
    await deps.legacy.get(req, res).catch((caught) => sendError(res, deps.log, caught, null, 'legacy'));
  });

  router.delete('/mcp', async (req, res) => {
    await deps.legacy.delete(req, res).catch((caught) => sendError(res, deps.log, caught, null, 'legacy'));
  });

  router.get('/sse', async (req, res) => {
    const messagesPath = `${req.baseUrl}/messages`;
    await deps.legacy
      .sseOpen(req, res, messagesPath)
      .catch((caught) => sendError(res, deps.log, caught, null, 'legacy'));
  });

  router.post('/messages', body, async (req, res) => {
    let id: JsonRpcId = null;
    try {
      const message = readMessage(req.body, deps.budget);
      id = message.id ?? null;
      if (message.id === undefined) await deps.legacy.ssePost(req, res, message);
      else
        await withLegSpan(
          message,
          'legacy',
          (name) => req.get(name),
          () => deps.legacy.ssePost(req, res, message),
        );
    } catch (caught) {
      sendError(res, deps.log, caught, id, 'legacy');
    }
  });

  router.all('/mcp', (_req, res) => {
    replyWithError(res, 'transport', methodNotAllowed('GET, POST, DELETE'));
  });
  return router;
}
