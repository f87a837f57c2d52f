/**
 * The error catalog: every JSON-RPC error the service answers with, built here and nowhere else
 * (code, message, data shape). Errors that end an exchange are recorded as outcomes by the worker
 * (exchange-errors.ts) and become RpcErrors through `fromOutcome`.
 */
import type { ExchangeMethod, OutcomeError } from '../exchange/types';
import { echoed } from './echoed-client-text';
import { EXCHANGE_CANCELLED, EXCHANGE_EXPIRED, EXCHANGE_TERMINATED, ROUND_CAP_EXCEEDED } from './exchange-errors';
import {
  HEADER_MISMATCH,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  PARSE_ERROR,
  SERVER_BUSY,
  SESSION_NOT_FOUND,
  UNSUPPORTED_PROTOCOL_VERSION,
} from './json-rpc-codes';
import { type ErrorKind, RpcError } from './rpc-error';

// -32700: the body is not JSON.
export const parseError = () => new RpcError('parseError', PARSE_ERROR, 'Parse error: the body is not valid JSON');

// -32600: the message is not one JSON-RPC request, or cannot be taken as one.
const invalidRequest = (message: string, data?: unknown) =>
  new RpcError('invalidRequest', INVALID_REQUEST, message, data);
export const notOneObject = () => invalidRequest('Invalid request: expected one JSON-RPC object');
/** The envelope the SDK's JSON-RPC schemas refuse; data: `{ path }` names the field. */
export const invalidMessage = (path: string, problem: string) =>
  invalidRequest(`Invalid request: ${path || 'the message'}: ${problem}`, { path });
/** data: `{ path: 'id', limit }`. */
export const requestIdTooLong = (limit: number) =>
  invalidRequest(`Invalid request: id is longer than ${limit} characters`, { path: 'id', limit });
export const sessionAlreadyInitialized = () => invalidRequest('This session is already initialized');
export const requestInProgress = () => invalidRequest('A request with this id is already in progress');
/** `subscriptions/listen` answers on an SSE stream: a client whose Accept does not list it cannot listen. */
export const listenNeedsEventStream = () =>
  invalidRequest('Invalid request: subscriptions/listen answers on an SSE stream; Accept must list text/event-stream');

// -32600 that the legacy era answers as an HTTP 400: the request's headers, not its body, are wrong.
export const sessionHeaderRequired = () =>
  new RpcError('sessionHeaderRequired', INVALID_REQUEST, 'Bad Request: Mcp-Session-Id header is required');
export const sessionVersionMismatch = (version: string, sessionVersion: string) =>
  new RpcError(
    'sessionVersionMismatch',
    INVALID_REQUEST,
    `Bad Request: MCP-Protocol-Version ${version} is not this session's ${sessionVersion}`,
  );

// -32601.
export const methodNotFound = (method: string) =>
  new RpcError('methodNotFound', METHOD_NOT_FOUND, `Method not found: ${echoed(method)}`);

// -32602: `data.path` names the field when there is one.
export const invalidParams = (message: string, data?: unknown) =>
  new RpcError('invalidParams', INVALID_PARAMS, message, data);
/** The one answer to any requestState that fails verification; the reason goes to the log only. */
/** Answers to questions a handler addressed to someone else: only they answer, through the answer page or API. */
export const questionsNotForCaller = (reason?: string) =>
  invalidParams(
    `This ask is addressed to someone else: its answers come from the answer page or the answer API${reason ? ` (${reason})` : ''}`,
    { path: 'params.inputResponses' },
  );

export const invalidRequestState = () =>
  new RpcError('invalidRequestState', INVALID_PARAMS, 'Invalid or expired requestState');
/**
 * -32602: this deployment has no handler for the tool, prompt or resource an exchange method names.
 * data: `{ path }`; `{ uri }` for a resource (the 2026-07-28 "resource not found" shape).
 */
export function unknownTarget(method: ExchangeMethod, target: string): RpcError {
  const shown = echoed(target);
  if (method === 'resources/read') return invalidParams(`Resource not found: ${shown}`, { uri: shown });
  return invalidParams(`${method === 'tools/call' ? 'Unknown tool' : 'Unknown prompt'}: ${shown}`, {
    path: 'params.name',
  });
}
/** -32602 with HTTP 413: one part of a request is over its configured size. data: `{ path, limit, size }`. */
export const tooLarge = (what: string, path: string, limit: number, size: number) =>
  new RpcError('tooLarge', INVALID_PARAMS, `Invalid params: ${what} is ${size} bytes, over the limit of ${limit}`, {
    path,
    limit,
    size,
  });

/**
 * -32602: a task id this server does not know, that expired, or that belongs to another principal:
 * one answer for all three, so a task id reveals nothing to whoever does not own it.
 */
export const taskNotFound = () => invalidParams('Failed to retrieve task: Task not found', { path: 'params.taskId' });

// -32021: the client did not declare what this request needs. data: `{ requiredCapabilities }`.
export const missingCapability = (message: string, requiredCapabilities: Record<string, unknown>) =>
  new RpcError('missingCapability', MISSING_REQUIRED_CLIENT_CAPABILITY, message, { requiredCapabilities });

// -32020: a 2026-07-28 header is missing or disagrees with the body.
export const missingHeader = (header: string) =>
  new RpcError('headerMismatch', HEADER_MISMATCH, `Missing required header: ${header}`);
export const headerMismatch = (header: string, headerValue: string, source: 'body' | '_meta', value: string) =>
  new RpcError(
    'headerMismatch',
    HEADER_MISMATCH,
    `Header mismatch: ${header} header value '${echoed(headerValue)}' does not match ${source} value '${echoed(value)}'`,
  );

/** A mirrored header (`Mcp-Name`, `Mcp-Param-*`) whose value breaks SEP-2243's encoding rules. data: `{ header }`. */
export const invalidHeaderValue = (header: string, problem: string) =>
  new RpcError('headerMismatch', HEADER_MISMATCH, `Invalid header value: ${header} ${problem}`, { header });
/**
 * The `Mcp-Param-*` header of a tool parameter declared with `x-mcp-header` disagrees with the
 * body's `arguments`: it is missing while the body has a value, present while the body has none,
 * or holds another value. data: `{ header, path }` (`path` names the body field).
 */
export const paramHeaderMissing = (header: string, path: string) =>
  new RpcError('headerMismatch', HEADER_MISMATCH, `Missing required header: ${header} (${path} has a value)`, {
    header,
    path,
  });
export const paramHeaderWithoutValue = (header: string, path: string) =>
  new RpcError('headerMismatch', HEADER_MISMATCH, `Header mismatch: ${header} is sent but ${path} has no value`, {
    header,
    path,
  });
export const paramHeaderMismatch = (header: string, headerValue: string, path: string, bodyValue: string) =>
  new RpcError(
    'headerMismatch',
    HEADER_MISMATCH,
    `Header mismatch: ${header} header value '${echoed(headerValue)}' does not match ${path} value '${echoed(bodyValue)}'`,
    { header, path },
  );

// -32022. data: `{ supported, requested }`.
export const unsupportedProtocolVersion = (requested: string, supported: readonly string[]) =>
  new RpcError('unsupportedVersion', UNSUPPORTED_PROTOCOL_VERSION, 'Unsupported protocol version', {
    supported: [...supported],
    requested,
  });

// -32001 on the legacy era (HTTP 404): the session is unknown or ended.
export const sessionNotFound = () => new RpcError('sessionNotFound', SESSION_NOT_FOUND, 'Session not found');

// -32000: at a configured capacity (429, Retry-After) or draining (503). data: `{ limit, retryAfterS }`.
export const capacityExceeded = (what: string, limit: number, retryAfterS: number) =>
  new RpcError(
    'serverBusy',
    SERVER_BUSY,
    `Server busy: ${what} (limit ${limit}); retry after ${retryAfterS} s`,
    { limit, retryAfterS },
    { retryAfterS },
  );
/** What a call refused by a quota is told (lib/quotas/quota-counters.ts `refusalOf`). */
export interface QuotaRefusal {
  /** The rule's name. */
  quota: string;
  window: 'minute' | 'hour' | 'day';
  windowS: number;
  limit: number;
  retryAfterS: number;
  /** When the window ends, RFC 3339 UTC. */
  resetAt: string;
}

/**
 * -32000 with HTTP 429: a quota of calls (QUOTA_CALLS_PER_*, QUOTAS_FILE) is used up for its window;
 * nothing was started. data: `{ quota, limit, window, windowS, retryAfterS, resetAt }` (`resetAt`:
 * when the window ends, RFC 3339 UTC), and `Retry-After` the same seconds.
 */
export const quotaExceeded = (refusal: QuotaRefusal) =>
  new RpcError(
    'serverBusy',
    SERVER_BUSY,
    `Quota exceeded: ${refusal.quota} allows ${refusal.limit} calls per ${refusal.window}; retry after ${refusal.retryAfterS} s (at ${refusal.resetAt})`,
    { ...refusal },
    { retryAfterS: refusal.retryAfterS },
  );
/** A repeated call joined one whose start then failed (Temporal refused it): sending it again starts it anew. */
export const repeatedCallGone = () =>
  new RpcError('serverBusy', SERVER_BUSY, 'The call this one repeated could not start; send it again', undefined, {
    retryAfterS: 1,
  });
export const serverDraining = () =>
  new RpcError('serverDraining', SERVER_BUSY, 'Server shutting down; retry on another instance', undefined, {
    retryAfterS: 1,
    closeConnection: true,
  });
/** `durable-mcp dev` while its service restarts: the same 503, from the process that holds the port. */
export const serviceRestarting = (retryAfterS: number) =>
  new RpcError(
    'serverDraining',
    SERVER_BUSY,
    `Service restarting; retry after ${retryAfterS} s`,
    { retryAfterS },
    { retryAfterS, closeConnection: true },
  );

// Refusals before any JSON-RPC message is read: the body, the HTTP method, the origin.
export const bodyTooLarge = () =>
  new RpcError('bodyTooLarge', INVALID_REQUEST, 'Request body exceeds the configured limit');
export const bodyUnsupported = () => new RpcError('bodyUnsupported', INVALID_REQUEST, 'Invalid request body');
/** A POST whose body is not declared JSON (a cross-site form or `text/plain` POST, say), refused unread. */
export const bodyNotJson = (contentType: string | undefined) =>
  new RpcError('bodyUnsupported', INVALID_REQUEST, 'Content-Type must be application/json', {
    contentType: contentType ?? null,
  });
export const bodyUnreadable = () => new RpcError('bodyUnreadable', INVALID_REQUEST, 'Invalid request body');
export const methodNotAllowed = (allow: string, reason?: string) =>
  new RpcError(
    'methodNotAllowed',
    INVALID_REQUEST,
    reason ? `Method not allowed: ${reason}` : 'Method not allowed',
    undefined,
    { allow },
  );
export const forbiddenOrigin = (origin: string) =>
  new RpcError('forbidden', INVALID_REQUEST, `Forbidden origin: ${origin}`);
export const forbiddenHost = (host: string | undefined) =>
  new RpcError(
    'forbidden',
    INVALID_REQUEST,
    `Forbidden host: ${host?.slice(0, 256)} (not a name of this server: list it in ALLOWED_HOSTS)`,
  );

// -32603: something failed that the client cannot fix (the cause is logged, never sent).
export const internalError = () => new RpcError('internal', INTERNAL_ERROR, 'Internal error');

/** The catalog entry of each code an exchange's recorded outcome can carry. */
const OUTCOME_KINDS: Record<number, ErrorKind> = {
  [EXCHANGE_EXPIRED]: 'expired',
  [ROUND_CAP_EXCEEDED]: 'capped',
  [EXCHANGE_CANCELLED]: 'cancelled',
  [EXCHANGE_TERMINATED]: 'terminated',
  [INTERNAL_ERROR]: 'exchangeFailed',
  [INVALID_PARAMS]: 'invalidParams',
  [MISSING_REQUIRED_CLIENT_CAPABILITY]: 'missingCapability',
};

/** An exchange's recorded error outcome (see exchange-errors.ts for each one's data) as an RpcError. */
export function fromOutcome(error: OutcomeError): RpcError {
  return new RpcError(OUTCOME_KINDS[error.code] ?? 'unlisted', error.code, error.message, error.data);
}
