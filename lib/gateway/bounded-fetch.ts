/**
 * The `fetch` the gateway reaches an upstream with: a response body past `limitBytes` (its declared
 * length, or the bytes as they arrive, a stream's included) fails the call instead of filling the
 * worker's memory. What an upstream can make the gateway hold is bounded by its `maxResultBytes`,
 * however it answers.
 */
export class UpstreamResponseTooLarge extends Error {
  override readonly name = 'UpstreamResponseTooLarge';
}

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

export function boundedFetch(limitBytes: number, base: Fetch = fetch): Fetch {
  const tooLarge = () => new UpstreamResponseTooLarge(`its response is over ${limitBytes} bytes`);
  return async (url, init) => {
    const response = await base(url, init);
    const declared = Number(response.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared > limitBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (!response.body) return response;
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > limitBytes) controller.error(tooLarge());
          else controller.enqueue(chunk);
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
