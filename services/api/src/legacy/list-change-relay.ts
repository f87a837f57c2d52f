/**
 * Tells a handshake-era client that the served tools, prompts or resources changed, on its
 * session's standing stream (the GET /mcp stream of Streamable HTTP, the one stream of a 2024-11-05
 * session), for as long as that stream is open on this process: `notifications/tools/list_changed`
 * (or `prompts/`, `resources/`), without an event id. Not in the session's event log on purpose:
 * the news is this process's (each process lists its upstreams itself), a client that reconnects
 * lists anyway, and a replayed "changed" would say nothing the listing does not.
 */
import { listChanged, type ListChanges } from '../../../../lib/handler-set/list-changes';
import type { SseWriter } from './sse-writer';

export function relayListChanges(
  changes: ListChanges | undefined,
  sse: Pick<SseWriter, 'write' | 'closed'>,
  stop: AbortSignal,
): void {
  if (!changes || stop.aborted) return;
  const unsubscribe = changes.subscribe((kind) => {
    if (!sse.closed) sse.write(listChanged(kind));
  });
  stop.addEventListener('abort', unsubscribe, { once: true });
}
