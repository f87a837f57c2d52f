/**
 * Delivers one stream of the event log to one SSE writer: its messages in order, each with its row
 * id as the event id (so Last-Event-ID resumes exactly after it), page by page, following new rows
 * as any replica's worker writes them, until the stream's final message, a handler's request to
 * close, or the client going away.
 */
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import { LEGACY_STREAM_CHANNEL, type LegacyStore } from '../../../../lib/db/legacy-store';
import { CLOSE_STREAM_KEY, PRIMING_KEY } from '../../../../lib/protocol/legacy-stream-keys';
import type { SseWriter } from './sse-writer';

export interface DeliveryOptions {
  /** Stop at the stream's final message (a call's response); false for a session's shared stream. */
  untilFinal?: boolean;
  /** The client resumes streams (2025-11-25, SEP-1699): send the priming event and close requests. */
  resumable?: boolean;
  /** Act on a handler's request to close (only the call's first, live delivery does). */
  honorClose?: boolean;
  /** Leave out the call's response: a GET stream that is not resuming must not carry responses. */
  withoutResponse?: boolean;
  /** Write what is already there, then return instead of following. */
  drainOnly?: boolean;
}

/** How a delivery ends: at the final message, at a close request honoured, or when the client went away. */
export type DeliveryEnd = 'final' | 'closed' | 'stopped';

/** How long a client should wait before reconnecting to a stream that was closed on purpose. */
export const RECONNECT_RETRY_MS = 500;

/**
 * Delivers `streamId` after `afterId`; resolves 'final' once its final message was written,
 * 'closed' when a handler asked for the stream to close, 'stopped' when the client went away.
 */
export async function deliverStream(
  deps: { legacy: LegacyStore; waiter: OutcomeWaiter },
  streamId: string,
  afterId: number,
  sse: SseWriter,
  stop: AbortSignal,
  options: DeliveryOptions = {},
): Promise<DeliveryEnd> {
  const {
    untilFinal = true,
    resumable = false,
    honorClose = false,
    withoutResponse = false,
    drainOnly = false,
  } = options;
  let lastId = afterId;
  // Page by page (the store reads at most a page), each after the consumer took the previous one.
  while (!stop.aborted && !sse.closed) {
    const messages = drainOnly
      ? await deps.legacy.readStream(streamId, lastId)
      : await deps.waiter.waitFor(
          LEGACY_STREAM_CHANNEL,
          streamId,
          async () => {
            const found = await deps.legacy.readStream(streamId, lastId);
            return found.length ? found : undefined;
          },
          30_000,
          stop,
        );
    for (const m of messages ?? []) {
      lastId = m.id;
      if (m.messageKey === PRIMING_KEY) {
        if (resumable) sse.mark(m.id, RECONNECT_RETRY_MS);
        continue;
      }
      if (m.messageKey.startsWith(CLOSE_STREAM_KEY)) {
        if (resumable && honorClose) {
          sse.mark(m.id, RECONNECT_RETRY_MS); // the client resumes after this id
          return 'closed';
        }
        continue;
      }
      if (!(m.final && withoutResponse)) sse.write(m.message, m.id);
      if (m.final && untilFinal) return 'final';
    }
    if (drainOnly && !messages?.length) return 'stopped';
    await sse.drained();
  }
  return 'stopped';
}
