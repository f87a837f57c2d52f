/**
 * Opens a legacy SSE stream on an HTTP response and writes to it: JSON-RPC messages with
 * their event ids, resumption marks, the 2024-11-05 `endpoint` event and keep-alive comments, within
 * the unread-bytes budget (SSE_MAX_BUFFERED_BYTES), and tells delivery when the consumer has caught
 * up. The framing itself is http/sse.ts, shared with the modern era.
 */
import type { Response } from 'express';
import type { Logger } from '../../../../lib/log';
import { boundedWriter, sseFrames, startSse } from '../http/sse';

export interface SseWriter {
  /** `messageKey`: what the stream recorded it as (legacy-stream-keys.ts), for a writer that watches what it carries. */
  write(message: object, eventId?: number, messageKey?: string): void;
  /** An event with an id and no data (SEP-1699): a resumption point, optionally with `retry`. */
  mark(eventId: number, retryMs?: number): void;
  /** A named event with raw data (the 2024-11-05 transport's `endpoint` announcement). */
  event(name: string, data: string): void;
  comment(text: string): void;
  /** Resolves once the consumer has read what was written (or after `DRAIN_WAIT_MS`, or on close). */
  drained(): Promise<void>;
  end(): void;
  /**
   * Ends the stream telling the client to reconnect in `retryMs` (the process is stopping): the
   * last event id it was sent, restated with `retry` (SEP-1699), so it resumes after that id on
   * another replica; a stream that sent no id gets the `retry` alone.
   */
  endForReconnect(retryMs: number): void;
  readonly closed: boolean;
  /** The id of the last event written, if one had an id. */
  readonly lastEventId: number | undefined;
}

export interface SseOptions {
  /** Bytes the consumer may leave unread (buffered in this process) before the stream is destroyed. */
  maxBufferedBytes: number;
  log: Logger;
  keepAliveMs?: number;
}

/**
 * How long delivery waits for a backed-up consumer before writing its next page anyway. A slow
 * consumer that still reads catches up within it; one that stopped reading keeps growing its
 * buffer page by page until `maxBufferedBytes` closes it, instead of holding its stream forever.
 */
export const DRAIN_WAIT_MS = 1_000;

export function openSse(res: Response, options: SseOptions): SseWriter {
  const { maxBufferedBytes, log, keepAliveMs = 15_000 } = options;
  startSse(res);
  const send = boundedWriter(res, maxBufferedBytes, (bufferedBytes) =>
    log.warn({ bufferedBytes, limit: maxBufferedBytes }, 'SSE consumer left too much unread; stream closed'),
  );
  const keepAlive = setInterval(() => send(sseFrames.comment('keep-alive')), keepAliveMs);
  keepAlive.unref();
  res.on('close', () => clearInterval(keepAlive));
  let lastEventId: number | undefined;
  const withId = (eventId: number | undefined) => {
    if (eventId !== undefined) lastEventId = eventId;
  };
  const end = () => {
    clearInterval(keepAlive);
    if (!res.writableEnded && !res.destroyed) res.end();
  };
  return {
    write(message, eventId) {
      withId(eventId);
      send(sseFrames.message(message, eventId));
    },
    mark(eventId, retryMs) {
      withId(eventId);
      send(sseFrames.mark(eventId, retryMs));
    },
    event: (name, data) => send(sseFrames.named(name, data)),
    comment: (text) => send(sseFrames.comment(text)),
    drained() {
      if (!res.writableNeedDrain || res.destroyed || res.writableEnded) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        const timer = setTimeout(done, DRAIN_WAIT_MS);
        res.once('drain', done);
        res.once('close', done);
      });
    },
    end,
    endForReconnect(retryMs) {
      send(lastEventId !== undefined ? sseFrames.mark(lastEventId, retryMs) : sseFrames.retry(retryMs));
      end();
    },
    get closed() {
      return res.writableEnded || res.destroyed;
    },
    get lastEventId() {
      return lastEventId;
    },
  };
}

/** Opens an SSE stream in a slot of its session (stream-slots.ts), freed when the response closes. */
export function openSseInSlot(res: Response, release: () => void, options: SseOptions): SseWriter {
  res.on('close', release);
  return openSse(res, options);
}
