/**
 * Writes a stream's messages to one SSE response, in order and with their event ids (the row ids
 * of the event log, so Last-Event-ID resumes exactly after them), following new ones as they are
 * produced by any replica, until the stream's final message or until the client goes away.
 */
import type { Response } from 'express';
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import { LEGACY_STREAM_CHANNEL, type LegacyStore } from '../../../../lib/db/legacy-store';
import type { Logger } from '../../../../lib/log';
import { CLOSE_STREAM_KEY, PRIMING_KEY } from '../../../../lib/protocol/legacy-stream-keys';
import { boundedWriter, sseFrames, startSse } from '../http/sse';

export interface SseWriter {
  write(message: object, eventId?: number): void;
  /** An event with an id and no data (SEP-1699): a resumption point, optionally with `retry`. */
  mark(eventId: number, retryMs?: number): void;
  /** A named event with raw data (the 2024-11-05 transport's `endpoint` announcement). */
  event(name: string, data: string): void;
  comment(text: string): void;
  /** Resolves once the consumer has read what was written (or after `DRAIN_WAIT_MS`, or on close). */
  drained(): Promise<void>;
  end(): void;
  readonly closed: boolean;
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
  return {
    write: (message, eventId) => send(sseFrames.message(message, eventId)),
    mark: (eventId, retryMs) => send(sseFrames.mark(eventId, retryMs)),
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
    end() {
      clearInterval(keepAlive);
      if (!res.writableEnded && !res.destroyed) res.end();
    },
    get closed() {
      return res.writableEnded || res.destroyed;
    },
  };
}

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
): Promise<'final' | 'closed' | 'stopped'> {
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
