/**
 * The answer to one POST: plain JSON, unless notifications must go out before the result, in
 * which case the response becomes an SSE stream at the first notification (so a result with no
 * notifications keeps its JSON form and its HTTP status, which an SSE response could not change).
 */
import type { Request, Response } from 'express';
import { boundedWriter, sseFrames, startSse } from './sse';

export interface ResponseChannel {
  /** Whether the client accepts an SSE response at all. */
  readonly canStream: boolean;
  /** Sends a JSON-RPC notification ahead of the response. */
  notify(message: object): void;
  /** An SSE comment, once the response streams: keeps a long stream alive through idle-closing proxies. */
  comment(text: string): void;
  /** Sends the response (a JSON-RPC result or error message) and ends. */
  finish(status: number, message: object): void;
}

/**
 * `maxBufferedBytes` bounds what a client that stops reading leaves in this process: past it the
 * stream is destroyed (the client retries its leg, which loses nothing) instead of buffered without end.
 */
export function createResponseChannel(
  req: Request,
  res: Response,
  maxBufferedBytes: number,
  onOverflow?: (buffered: number) => void,
): ResponseChannel {
  const canStream = (req.get('accept') ?? '').includes('text/event-stream');
  let streaming = false;
  const send = boundedWriter(res, maxBufferedBytes, (buffered) => onOverflow?.(buffered));
  return {
    canStream,
    notify(message) {
      if (!canStream || res.writableEnded) return;
      if (!streaming) {
        streaming = true;
        startSse(res);
      }
      send(sseFrames.message(message));
    },
    comment(text) {
      if (streaming && !res.writableEnded) send(sseFrames.comment(text));
    },
    finish(status, message) {
      if (res.writableEnded) return;
      if (streaming) {
        send(sseFrames.message(message));
        res.end();
        return;
      }
      // Written directly rather than through express's res.json: the answer to a POST is never
      // cached or revalidated, so the ETag express computes (a hash of every body) is wasted work.
      const body = JSON.stringify(message);
      res.writeHead(status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
    },
  };
}
