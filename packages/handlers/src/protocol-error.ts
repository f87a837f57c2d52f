/**
 * A JSON-RPC error a handler ends its call with. A tool that throws anything else reports a tool
 * error (`isError: true`, as MCP asks of tool failures); one that throws this ends the call with
 * the error itself, which a task reports as `failed` with the error inlined (SEP-2663 keeps
 * `failed` for protocol-level errors).
 */
import { ProtocolError as SdkProtocolError } from '@modelcontextprotocol/server';

// A brand rather than `instanceof`: the service and a handler module may each load their own copy
// of this package (two installs, or a module built against another version), and an error thrown by
// one copy must still be recognised by the other.
const BRAND = Symbol.for('@durable-mcp/handlers.ProtocolError');

export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  readonly [BRAND] = true;
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * Whether `error` is a `ProtocolError`, from this copy of the package or any other, or the
 * official SDK's `ProtocolError` (recognised by the SDK's own brand, whichever copy threw it):
 * one error type for authors, whichever they import.
 */
export function isProtocolError(error: unknown): error is ProtocolError {
  if (error instanceof SdkProtocolError) return typeof (error as { code?: unknown }).code === 'number';
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[BRAND] === true &&
    typeof (error as { code?: unknown }).code === 'number'
  );
}
