/**
 * Server-sent events on an HTTP response, for both eras: the response headers, the framing of each
 * kind of event, and a writer that closes a consumer leaving more than its budget unread instead of
 * buffering without end (SSE_MAX_BUFFERED_BYTES).
 */
import type { Response } from 'express';

/**
 * Turns `res` into an event stream: 200, the SSE headers, sent now. A response already marked
 * `Connection: close` (one started while the process drains) keeps that.
 */
export function startSse(res: Response): void {
  res.status(200).set({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  if (res.get('connection') === undefined) res.set('connection', 'keep-alive');
  res.flushHeaders();
}

export const sseFrames = {
  /** A JSON-RPC message, with the event id a client resumes after. */
  message: (message: object, eventId?: number) =>
    `${eventId !== undefined ? `id: ${eventId}\n` : ''}event: message\ndata: ${JSON.stringify(message)}\n\n`,
  /** An event with an id and no data (SEP-1699): a resumption point, optionally with `retry`. */
  mark: (eventId: number, retryMs?: number) =>
    `id: ${eventId}\n${retryMs !== undefined ? `retry: ${retryMs}\n` : ''}data: \n\n`,
  /** No event, only how soon to reconnect (for a stream whose events carried no id). */
  retry: (retryMs: number) => `retry: ${retryMs}\n\n`,
  /** A named event with raw data (the 2024-11-05 transport's `endpoint` announcement). */
  named: (name: string, data: string) => `event: ${name}\ndata: ${data}\n\n`,
  comment: (text: string) => `: ${text}\n\n`,
};

/**
 * Writes chunks to `res`, and destroys it once the consumer has left more than `maxBufferedBytes`
 * unread (calling `onOverflow` with what was buffered). Writes after the end are dropped.
 */
export function boundedWriter(
  res: Response,
  maxBufferedBytes: number,
  onOverflow: (bufferedBytes: number) => void,
): (chunk: string) => void {
  return (chunk) => {
    if (res.writableEnded || res.destroyed) return;
    res.write(chunk);
    if (res.writableLength > maxBufferedBytes) {
      onOverflow(res.writableLength);
      res.destroy();
    }
  };
}
