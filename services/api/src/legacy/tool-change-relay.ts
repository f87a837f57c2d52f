/**
 * Tells a handshake-era client that the served tools changed, on its session's standing stream
 * (the GET /mcp stream of Streamable HTTP, the one stream of a 2024-11-05 session), for as long as
 * that stream is open on this process: `notifications/tools/list_changed`, without an event id.
 * Not in the session's event log on purpose: the news is this process's (each process lists its
 * upstreams itself), a client that reconnects lists the tools anyway, and a replayed "changed"
 * would say nothing the listing does not.
 */
import { TOOL_LIST_CHANGED, type ToolListChanges } from '../../../../lib/handler-set/tool-list-changes';
import type { SseWriter } from './sse-writer';

export function relayToolListChanges(
  changes: ToolListChanges | undefined,
  sse: Pick<SseWriter, 'write' | 'closed'>,
  stop: AbortSignal,
): void {
  if (!changes || stop.aborted) return;
  const unsubscribe = changes.subscribe(() => {
    if (!sse.closed) sse.write(TOOL_LIST_CHANGED);
  });
  stop.addEventListener('abort', unsubscribe, { once: true });
}
