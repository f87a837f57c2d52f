/**
 * The one JSON-RPC message a legacy POST carries, as routes/mcp.ts parsed and checked it: a
 * request (`method` and `id`), a notification (`method`, no `id`), or the client's response to one
 * of the server's requests (`id` with `result` or `error`, no `method`).
 */
export interface IncomingMessage {
  id?: string | number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}
