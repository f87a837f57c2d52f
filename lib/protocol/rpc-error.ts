/**
 * The JSON-RPC error the API throws anywhere in request handling. Its `kind` names its entry in
 * the error catalog (error-catalog.ts builds every one); the HTTP status it gets is decided by the
 * era it is answered in (error-response.ts), never by the code that throws it.
 */

/** Every error the service answers with: one entry each in the catalog and the status table. */
export type ErrorKind =
  | 'parseError'
  | 'invalidRequest'
  | 'sessionHeaderRequired'
  | 'sessionVersionMismatch'
  | 'methodNotFound'
  | 'invalidParams'
  | 'invalidRequestState'
  | 'headerMismatch'
  | 'missingCapability'
  | 'unsupportedVersion'
  | 'sessionNotFound'
  | 'serverBusy'
  | 'tooLarge'
  | 'serverDraining'
  | 'bodyTooLarge'
  | 'bodyUnsupported'
  | 'bodyUnreadable'
  | 'methodNotAllowed'
  | 'forbidden'
  | 'expired'
  | 'capped'
  | 'cancelled'
  | 'terminated'
  | 'exchangeFailed'
  | 'internal'
  | 'unlisted';

/** What an error's HTTP response says beyond its status: when to retry, what is allowed, closing. */
export interface RpcErrorHttp {
  retryAfterS?: number;
  allow?: string;
  closeConnection?: boolean;
}

export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly kind: ErrorKind,
    readonly code: number,
    message: string,
    readonly data?: unknown,
    readonly http: RpcErrorHttp = {},
  ) {
    super(message);
  }

  toJson(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}

export { SERVER_BUSY } from './json-rpc-codes';
