/**
 * Delivers one stream of the event log to one SSE writer: its messages in order, each with its row
 * id as the event id (so Last-Event-ID resumes exactly after it), page by page, following new rows
 * as any replica's worker writes them, until the stream's final message, a handler's request to
 * close, the client going away, or the process stopping (then what is already recorded is written
 * first, so the client resumes after all of it). What a page puts on the wire is decided by `planPage`, a pure
 * function; `deliverStream` only reads, writes and waits.
 */
import type { OutcomeWaiter } from '../../../../lib/db/outcome-waiter';
import { LEGACY_STREAM_CHANNEL, type LegacyStore, type StreamMessage } from '../../../../lib/db/legacy-store';
import { CLOSE_STREAM_KEY, PRIMING_KEY } from '../../../../lib/protocol/legacy-stream-keys';
import { eitherSignal } from '../http/shutdown';
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
  /**
   * Writes the call's response as this returns it: a task's tasks/result carries the response under
   * its own request id, not the tools/call's.
   */
  renderFinal?: (response: Record<string, unknown>) => Record<string, unknown>;
  /** Write what is already there, then return instead of following. */
  drainOnly?: boolean;
  /**
   * Aborted when this stream is to end because the process stops: the delivery writes what is
   * already recorded, without waiting for more, and ends 'drained' (the caller then tells the
   * client to reconnect).
   */
  drain?: AbortSignal;
}

/**
 * How a delivery ends: at the final message, at a close request honoured, when the client went
 * away, or for the process stopping.
 */
export type DeliveryEnd = 'final' | 'closed' | 'stopped' | 'drained';

/** How long a client should wait before reconnecting to a stream that was closed on purpose. */
export const RECONNECT_RETRY_MS = 500;

/** How long one wait for new rows lasts before it is simply started again (NOTIFY ends it sooner). */
const FOLLOW_WAIT_MS = 30_000;

/** One SSE event a page writes. */
export type Frame =
  | { kind: 'message'; message: Record<string, unknown>; eventId: number; messageKey: string }
  /** A resumption point without data (SEP-1699), telling the client how soon to reconnect. */
  | { kind: 'mark'; eventId: number; retryMs: number };

export interface PagePlan {
  /** What to write, in stream order. */
  frames: Frame[];
  /** The cursor after the page: the next read starts after it (control entries move it too). */
  lastId: number;
  /** Set when the delivery ends within the page; nothing after that message is written. */
  end?: Exclude<DeliveryEnd, 'stopped'>;
}

type PageOptions = Required<Pick<DeliveryOptions, 'untilFinal' | 'resumable' | 'honorClose' | 'withoutResponse'>> &
  Pick<DeliveryOptions, 'renderFinal'>;

/**
 * What one page of a stream (rows after `afterId`, in id order) puts on the wire. The priming entry
 * becomes a mark only for a client that resumes; a handler's close request ends a resumable live
 * delivery at a mark the client resumes after, and is passed over otherwise; every other row is
 * written as it is, except the final response on a stream that must not carry it; the final message
 * ends a call's delivery.
 */
export function planPage(messages: ReadonlyArray<StreamMessage>, afterId: number, options: DeliveryOptions): PagePlan {
  const { untilFinal, resumable, honorClose, withoutResponse, renderFinal } = withDefaults(options);
  const frames: Frame[] = [];
  let lastId = afterId;
  for (const m of messages) {
    lastId = m.id;
    if (m.messageKey === PRIMING_KEY) {
      if (resumable) frames.push({ kind: 'mark', eventId: m.id, retryMs: RECONNECT_RETRY_MS });
      continue;
    }
    if (m.messageKey.startsWith(CLOSE_STREAM_KEY)) {
      if (resumable && honorClose) {
        frames.push({ kind: 'mark', eventId: m.id, retryMs: RECONNECT_RETRY_MS }); // the client resumes after this id
        return { frames, lastId, end: 'closed' };
      }
      continue;
    }
    const message = m.final && renderFinal ? renderFinal(m.message) : m.message;
    if (!(m.final && withoutResponse))
      frames.push({ kind: 'message', message, eventId: m.id, messageKey: m.messageKey });
    if (m.final && untilFinal) return { frames, lastId, end: 'final' };
  }
  return { frames, lastId };
}

function withDefaults(options: DeliveryOptions): PageOptions {
  const { untilFinal = true, resumable = false, honorClose = false, withoutResponse = false, renderFinal } = options;
  return { untilFinal, resumable, honorClose, withoutResponse, ...(renderFinal ? { renderFinal } : {}) };
}

function writeFrame(sse: SseWriter, frame: Frame): void {
  if (frame.kind === 'mark') sse.mark(frame.eventId, frame.retryMs);
  else sse.write(frame.message, frame.eventId, frame.messageKey);
}

/**
 * Delivers `streamId` after `afterId`; resolves 'final' once its final message was written,
 * 'closed' when a handler asked for the stream to close, 'stopped' when the client went away (or,
 * with `drainOnly`, once nothing is left to write), 'drained' once `drain` aborted and what was
 * recorded by then is written.
 */
export async function deliverStream(
  deps: { legacy: Pick<LegacyStore, 'readStream'>; waiter: Pick<OutcomeWaiter, 'waitFor'> },
  streamId: string,
  afterId: number,
  sse: SseWriter,
  stop: AbortSignal,
  options: DeliveryOptions = {},
): Promise<DeliveryEnd> {
  const { drainOnly = false, drain } = options;
  // A wait for new rows ends when the client goes away or the drain begins.
  const waiting = drain ? eitherSignal(stop, drain) : { signal: stop, dispose: () => undefined };
  let lastId = afterId;
  try {
    // Page by page (the store reads at most a page), each after the consumer took the previous one.
    while (!stop.aborted && !sse.closed) {
      const flushing = drainOnly || drain?.aborted === true;
      const messages = flushing
        ? await deps.legacy.readStream(streamId, lastId)
        : await deps.waiter.waitFor(
            LEGACY_STREAM_CHANNEL,
            streamId,
            async () => {
              const found = await deps.legacy.readStream(streamId, lastId);
              return found.length ? found : undefined;
            },
            FOLLOW_WAIT_MS,
            waiting.signal,
          );
      const page = planPage(messages ?? [], lastId, options);
      for (const frame of page.frames) writeFrame(sse, frame);
      if (page.end) return page.end;
      lastId = page.lastId;
      if (flushing && !messages?.length) return drainOnly ? 'stopped' : 'drained';
      await sse.drained();
    }
    return 'stopped';
  } finally {
    waiting.dispose();
  }
}
