/**
 * Writes a stream's messages to one SSE response, in order and with their event ids (the row ids
 * of the event log, so Last-Event-ID resumes exactly after them), following new ones as they are
 * produced by any replica, until the stream's final message or until the client goes away.
 */
import type { Response } from 'express';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import { LEGACY_STREAM_CHANNEL, type LegacyStore } from '../../../../lib/db/legacy-store';

export interface SseWriter {
  write(message: object, eventId?: number): void;
  /** A named event with raw data (the 2024-11-05 transport's `endpoint` announcement). */
  event(name: string, data: string): void;
  comment(text: string): void;
  end(): void;
  readonly closed: boolean;
}

export function openSse(res: Response, keepAliveMs = 15_000): SseWriter {
  res.status(200).set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
  const keepAlive = setInterval(() => !res.writableEnded && res.write(': keep-alive\n\n'), keepAliveMs);
  keepAlive.unref();
  res.on('close', () => clearInterval(keepAlive));
  return {
    write(message, eventId) {
      if (res.writableEnded) return;
      res.write(`${eventId !== undefined ? `id: ${eventId}\n` : ''}event: message\ndata: ${JSON.stringify(message)}\n\n`);
    },
    event(name, data) {
      if (!res.writableEnded) res.write(`event: ${name}\ndata: ${data}\n\n`);
    },
    comment(text) {
      if (!res.writableEnded) res.write(`: ${text}\n\n`);
    },
    end() {
      clearInterval(keepAlive);
      if (!res.writableEnded) res.end();
    },
    get closed() {
      return res.writableEnded || res.destroyed;
    },
  };
}

/**
 * Delivers `streamId` after `afterId`; resolves true once its final message was written (a call's
 * response), or runs until stopped when `untilFinal` is false (a session's shared stream).
 */
export async function deliverStream(
  deps: { legacy: LegacyStore; waiter: OutcomeWaiter },
  streamId: string,
  afterId: number,
  sse: SseWriter,
  stop: AbortSignal,
  untilFinal = true,
): Promise<boolean> {
  let lastId = afterId;
  while (!stop.aborted && !sse.closed) {
    const messages = await deps.waiter.waitFor(
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
      sse.write(m.message, m.id);
      lastId = m.id;
      if (m.final && untilFinal) return true;
    }
  }
  return false;
}
