/**
 * The `fetch` the gateway reaches an upstream with: a response body past `limitBytes` (its declared
 * length, or the bytes as they arrive, a stream's included) fails the call instead of filling the
 * worker's memory. What an upstream can make the gateway hold is bounded by its `maxResultBytes`,
 * however it answers.
 *
 * A plain JSON answer fails the request that reads it. An SSE stream cut at the limit does not: the
 * client (the SDK's transport) reads it apart from the request, reports a stream lost, and the
 * request would wait for its timeout and be retried. So a call made under `cutAtTheLimit` is told
 * of its own answer's overflow, and fails with it at once.
 *
 * An SSE stream is bounded event by event: no one message may pass the limit, however long the
 * stream stays open (a `subscriptions/listen` or a session's stream lives for days and carries
 * many small messages; a call's stream ends at its timeout).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export class UpstreamResponseTooLarge extends Error {
  override readonly name = 'UpstreamResponseTooLarge';
}

/** Who hears of an overflow of the responses fetched for it: the call under way, when there is one. */
const overflowHeard = new AsyncLocalStorage<(error: UpstreamResponseTooLarge) => void>();

/**
 * Runs a call with a signal (`outer`'s too, if given) that aborts when a response fetched for it
 * passes its limit, and fails it with that UpstreamResponseTooLarge (not the abort the client makes
 * of it), wherever the response was read.
 */
export async function cutAtTheLimit<T>(
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const cut = new AbortController();
  const signal = outer ? AbortSignal.any([outer, cut.signal]) : cut.signal;
  try {
    return await overflowHeard.run(
      (error) => cut.abort(error),
      () => run(signal),
    );
  } catch (error) {
    throw cut.signal.aborted ? (cut.signal.reason as UpstreamResponseTooLarge) : error;
  }
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** The blank lines that end an SSE event. */
const EVENT_ENDS = ['\n\n', '\r\n\r\n', '\r\r'].map((end) => Buffer.from(end));
/** The longest of them, less one: what of a chunk's end may begin one the next chunk ends. */
const CARRIED = 3;

/**
 * Counts the bytes of the SSE event being read, chunk by chunk: `count(chunk)` says how many bytes
 * of the current event have arrived, counting from the last blank line that ended one (found across
 * chunk boundaries too).
 */
export function sseEventBytes(): (chunk: Uint8Array) => number {
  let carried = Buffer.alloc(0);
  let current = 0;
  return (chunk) => {
    const joined = Buffer.concat([carried, chunk]);
    let end = -1;
    for (const ending of EVENT_ENDS) {
      const at = joined.lastIndexOf(ending);
      if (at >= 0) end = Math.max(end, at + ending.length);
    }
    current = end < 0 ? current + chunk.byteLength : joined.length - end;
    carried = joined.subarray(Math.max(0, joined.length - CARRIED));
    return current;
  };
}

export function boundedFetch(limitBytes: number, base: Fetch = fetch): Fetch {
  return async (url, init) => {
    // Read where the request is made: the stream is read later, in its client's own context.
    const overflowed = overflowHeard.getStore();
    const overflow = () => {
      const error = new UpstreamResponseTooLarge(`its response is over ${limitBytes} bytes`);
      overflowed?.(error);
      return error;
    };
    const response = await base(url, init);
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limitBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw overflow();
    }
    if (!response.body) return response;
    const isEventStream = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    let total = 0;
    const eventBytes = isEventStream ? sseEventBytes() : (chunk: Uint8Array) => (total += chunk.byteLength);
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (eventBytes(chunk) <= limitBytes) {
            controller.enqueue(chunk);
            return;
          }
          controller.error(overflow());
        },
      }),
    );
    return new Response(counted, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
