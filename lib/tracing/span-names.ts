/**
 * What a leg's span may say of the client's message. Its name comes only from the MCP methods
 * (a fixed set, so a collector's span-name index does not grow with what clients send); anything
 * else is `mcp other`, with the method itself, cut short like every echoed string
 * (lib/protocol/echoed-client-text.ts), in the `mcp.method` attribute. Pure.
 */
import { echoed } from '../protocol/echoed-client-text';

const MCP_METHODS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'logging/setLevel',
  'tasks/get',
  'tasks/result',
  'tasks/list',
  'tasks/update',
  'tasks/cancel',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/progress',
  'notifications/roots/list_changed',
]);

/** The span's name: `mcp <method>` for an MCP method, `mcp other` for another, `mcp response` for none. */
export function legSpanName(method: string | undefined): string {
  if (method === undefined) return 'mcp response';
  return MCP_METHODS.has(method) ? `mcp ${method}` : 'mcp other';
}

/** A client string as a span attribute holds it. */
export const spanText = (text: string): string => echoed(text);
