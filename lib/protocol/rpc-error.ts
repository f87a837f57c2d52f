/**
 * A JSON-RPC error the API answers with, carrying the HTTP status the 2026-07-28 transport rules
 * give its code. Thrown anywhere in request handling; rendered once by the MCP route.
 */
import type { OutcomeError } from '../exchange/types';
import {
  HEADER_MISMATCH,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  MISSING_REQUIRED_CLIENT_CAPABILITY,
  PARSE_ERROR,
  UNSUPPORTED_PROTOCOL_VERSION,
} from './json-rpc-codes';

/** HTTP status per code (MCP 2026-07-28 basic/index + transports/streamable-http); others are 200. */
const HTTP_STATUS: Record<number, number> = {
  [PARSE_ERROR]: 400,
  [INVALID_REQUEST]: 400,
  [METHOD_NOT_FOUND]: 404,
  [INVALID_PARAMS]: 400,
  [INTERNAL_ERROR]: 500,
  [HEADER_MISMATCH]: 400,
  [MISSING_REQUIRED_CLIENT_CAPABILITY]: 400,
  [UNSUPPORTED_PROTOCOL_VERSION]: 400,
};

export function httpStatusFor(code: number): number {
  return HTTP_STATUS[code] ?? 200;
}

/** What a few errors say beyond their code: a status of their own (413, 429) and when to retry. */
export interface RpcErrorHttp {
  status?: number;
  retryAfterS?: number;
}

export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly http: RpcErrorHttp = {},
  ) {
    super(message);
  }

  get httpStatus(): number {
    return this.http.status ?? httpStatusFor(this.code);
  }

  /** Errors that keep their own HTTP status on both eras (capacity, size): not a JSON-RPC 200. */
  get isTransportLevel(): boolean {
    return this.http.status !== undefined;
  }

  static from(error: OutcomeError): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }

  toJson(): { code: number; message: string; data?: unknown } {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

export const invalidParams = (message: string, data?: unknown) => new RpcError(INVALID_PARAMS, message, data);

/** -32000: the server is at a configured capacity; the client may retry after `retryAfterS`. */
export const SERVER_BUSY = -32000;
export const capacityExceeded = (what: string, limit: number, retryAfterS: number) =>
  new RpcError(SERVER_BUSY, `Server busy: ${what} (limit ${limit}); retry after ${retryAfterS} s`, { limit, retryAfterS }, { status: 429, retryAfterS });

/** -32602 with HTTP 413: one part of a request is over its configured size. */
export const tooLarge = (what: string, path: string, limit: number, size: number) =>
  new RpcError(INVALID_PARAMS, `Invalid params: ${what} is ${size} bytes, over the limit of ${limit}`, { path, limit, size }, { status: 413 });

/** The one answer to any requestState that fails verification; the reason goes to the log only. */
export const invalidRequestState = () => invalidParams('Invalid or expired requestState');
