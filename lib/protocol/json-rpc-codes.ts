/** JSON-RPC 2.0 and MCP 2026-07-28 error codes (pure constants; safe in the workflow bundle). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
export const HEADER_MISMATCH = -32020;
export const MISSING_REQUIRED_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;
/** Implementation-defined: the server is at a configured capacity (429) or draining (503). */
export const SERVER_BUSY = -32000;
/** Implementation-defined: the legacy session is unknown or ended (HTTP 404). */
export const SESSION_NOT_FOUND = -32001;
