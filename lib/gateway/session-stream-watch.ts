/**
 * Tells when a handshake-era upstream's session stream is gone for good, from the `GET` requests
 * the official client's transport makes for it (it opens the stream after the handshake, and
 * reopens it twice, after 1 s and 1.5 s, when it drops; then it gives up, silently). The stream is
 * where such an upstream announces its tool changes, so without it the gateway would hear nothing
 * more until the upstream's next periodic listing. It is gone when the upstream answers a `GET`
 * 404 (it no longer knows the session: it restarted), or when it stays down (dropped, or not
 * reopened) for `graceMs`, longer than the transport's own reopenings take. Then `lost` is called
 * (once), and the gateway ends that connection: the next one is a new session, with its stream.
 *
 * A server that answers the `GET` 405 offers no stream: that is not a loss (the upstream is listed
 * every `refreshEveryMs`). A request the client aborted itself (its close) is not one either.
 */

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** Longer than the official client's two reopenings of a dropped stream (1 s, then 1.5 s), with their requests. */
export const SESSION_STREAM_GRACE_MS = 5_000;

export interface SessionStreamWatch {
  /** The transport's `fetch`, watching its `GET` requests. */
  fetch: Fetch;
  /** Stops the watch (the connection closed): `lost` is not called any more. */
  stop(): void;
}

export function watchSessionStream(
  base: Fetch,
  lost: () => void,
  graceMs: number = SESSION_STREAM_GRACE_MS,
): SessionStreamWatch {
  let timer: NodeJS.Timeout | undefined;
  let done = false;
  const give = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    lost();
  };
  const down = () => {
    if (done || timer) return;
    timer = setTimeout(give, graceMs);
    timer.unref();
  };
  const up = () => {
    clearTimeout(timer);
    timer = undefined;
  };

  /** `body`, telling `ended` when it ends or fails other than by its reader's own cancel. */
  const watched = (body: ReadableStream<Uint8Array>, ended: () => void) => {
    const reader = body.getReader();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done: over, value } = await reader.read();
          if (over) {
            controller.close();
            ended();
          } else controller.enqueue(value);
        } catch (error) {
          controller.error(error);
          ended();
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
  };

  return {
    async fetch(url, init) {
      if ((init?.method ?? 'GET') !== 'GET') return base(url, init);
      const aborted = () => init?.signal?.aborted === true;
      let response: Response;
      try {
        response = await base(url, init);
      } catch (error) {
        if (!aborted()) down();
        throw error;
      }
      if (response.status === 404) give();
      else if (response.status === 405) up();
      else if (!response.ok || !response.body) down();
      else {
        up();
        return new Response(
          watched(response.body, () => {
            if (!aborted()) down();
          }),
          { status: response.status, statusText: response.statusText, headers: response.headers },
        );
      }
      return response;
    },
    stop() {
      done = true;
      clearTimeout(timer);
    },
  };
}
