/**
 * A JSON-RPC error a handler ends its call with. A tool that throws anything else reports a tool
 * error (`isError: true`, as MCP asks of tool failures); one that throws this ends the call with
 * the error itself, which a task reports as `failed` with the error inlined (SEP-2663 keeps
 * `failed` for protocol-level errors).
 */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}
