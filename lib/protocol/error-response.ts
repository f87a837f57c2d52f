/**
 * Renders any RpcError as its HTTP response: the status (from the one era × error table below),
 * the headers it implies and the JSON-RPC error envelope.
 *
 * - `modern`: 2026-07-28 clients get the status the spec gives the code.
 * - `legacy`: legacy clients get 200 for JSON-RPC-level errors (their SDKs turn any other
 *   non-2xx into a transport error that hides the code); only transport-level refusals keep a
 *   status of their own (parse 400, a header-level bad request 400, session gone 404, size 413,
 *   capacity 429, draining 503, an unexpected failure 500).
 * - `transport`: body- and route-level refusals before either era is known.
 */
import { errorEnvelope, type JsonRpcId } from './json-rpc-envelope';
import type { ErrorKind, RpcError } from './rpc-error';

export type Era = 'modern' | 'legacy' | 'transport';

const status = (modern: number, legacy: number, transport: number): Record<Era, number> => ({
  modern,
  legacy,
  transport,
});

/** The HTTP status of every catalog entry in every era. */
export const HTTP_STATUS: Readonly<Record<ErrorKind, Readonly<Record<Era, number>>>> = {
  //                       modern legacy transport
  parseError: status(400, 400, 400),
  invalidRequest: status(400, 200, 400),
  sessionHeaderRequired: status(400, 400, 400),
  sessionVersionMismatch: status(400, 400, 400),
  methodNotFound: status(404, 200, 404),
  invalidParams: status(400, 200, 400),
  invalidRequestState: status(400, 200, 400),
  headerMismatch: status(400, 200, 400),
  missingCapability: status(400, 200, 400),
  unsupportedVersion: status(400, 200, 400),
  sessionNotFound: status(404, 404, 404),
  serverBusy: status(429, 429, 429),
  tooLarge: status(413, 413, 413),
  serverDraining: status(503, 503, 503),
  bodyTooLarge: status(413, 413, 413),
  bodyUnsupported: status(415, 415, 415),
  bodyUnreadable: status(400, 400, 400),
  methodNotAllowed: status(405, 405, 405),
  forbidden: status(403, 403, 403),
  expired: status(200, 200, 200),
  capped: status(200, 200, 200),
  cancelled: status(200, 200, 200),
  terminated: status(200, 200, 200),
  exchangeFailed: status(500, 200, 500),
  internal: status(500, 500, 500),
  unlisted: status(200, 200, 200),
};

export interface ErrorResponse {
  status: number;
  headers: Record<string, string>;
  body: ReturnType<typeof errorEnvelope>;
}

function headersOf(error: RpcError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.http.retryAfterS !== undefined) headers['Retry-After'] = String(error.http.retryAfterS);
  if (error.http.allow !== undefined) headers.Allow = error.http.allow;
  if (error.http.closeConnection) headers.Connection = 'close';
  return headers;
}

export function renderErrorResponse(era: Era, error: RpcError, id: JsonRpcId | undefined): ErrorResponse {
  return { status: HTTP_STATUS[error.kind][era], headers: headersOf(error), body: errorEnvelope(id, error.toJson()) };
}
