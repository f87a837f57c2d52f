import { boundedFetch, cutAtTheLimit, sseEventBytes, UpstreamResponseTooLarge } from './bounded-fetch';

const answering =
  (body: ConstructorParameters<typeof Response>[0], headers: Record<string, string> = {}) =>
  async () =>
    new Response(body, { headers });

/** An SSE stream of `data: {}` events, as long as it is read. */
const endlessEvents = () =>
  new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new TextEncoder().encode('data: {}\n\n'));
    },
  });

/** An SSE stream of one event that never ends, as long as it is read. */
const endlessEvent = () => {
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(new TextEncoder().encode(started ? 'xxxxxxxxxx' : 'data: '));
      started = true;
    },
  });
};

/** Reads at least `bytes` of a stream, then lets it go: how many were read. */
async function readEvents(stream: ReadableStream<Uint8Array>, bytes: number): Promise<number> {
  const reader = stream.getReader();
  let read = 0;
  while (read < bytes) read += (await reader.read()).value!.byteLength;
  await reader.cancel();
  return read;
}

describe('the bytes of the SSE event being read', () => {
  it('start again after each blank line, found across chunks', () => {
    const count = sseEventBytes();
    expect(count(Buffer.from('data: 12345'))).toBe(11);
    expect(count(Buffer.from('\r\n\r'))).toBe(14);
    expect(count(Buffer.from('\ndata: ab'))).toBe(8);
    expect(count(Buffer.from('\n\n'))).toBe(0);
  });
});

describe("the gateway's fetch", () => {
  it('passes a response within the limit through as it came', async () => {
    const response = await boundedFetch(10, answering('{"ok":1}', { 'content-type': 'application/json' }))('http://u');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"ok":1}');
  });

  it('refuses a response that declares a length over the limit, before reading it', async () => {
    await expect(boundedFetch(10, answering('x'.repeat(11), { 'content-length': '11' }))('http://u')).rejects.toThrow(
      UpstreamResponseTooLarge,
    );
  });

  it("fails a streamed body once one event's bytes pass the limit", async () => {
    const response = await boundedFetch(
      100,
      answering(endlessEvent(), { 'content-type': 'text/event-stream' }),
    )('http://u');
    await expect(response.text()).rejects.toThrow('its response is over 100 bytes');
  });

  it('never cuts a long-lived stream of small events for its total', async () => {
    const response = await boundedFetch(
      100,
      answering(endlessEvents(), { 'content-type': 'text/event-stream' }),
    )('http://u');
    expect(await readEvents(response.body!, 10_000)).toBeGreaterThanOrEqual(10_000);
  });

  it('counts a plain body whole, though it has blank lines', async () => {
    const response = await boundedFetch(
      100,
      answering(endlessEvents(), { 'content-type': 'application/json' }),
    )('http://u');
    await expect(response.text()).rejects.toThrow('its response is over 100 bytes');
  });

  it('fails a call whose stream passes the limit with that error, though its client only saw the stream fail', async () => {
    const fetchOf = boundedFetch(100, answering(endlessEvent(), { 'content-type': 'text/event-stream' }));
    // As the SDK's transport does: the stream is read apart, its failure reported elsewhere, and the
    // call waits for its answer until its signal aborts.
    const streamLost: unknown[] = [];
    const call = cutAtTheLimit(undefined, async (signal) => {
      const response = await fetchOf('http://u');
      response.text().catch((error: unknown) => streamLost.push(error));
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('timed out'))));
    });
    await expect(call).rejects.toThrow(new UpstreamResponseTooLarge('its response is over 100 bytes'));
    expect(streamLost).toEqual([expect.any(UpstreamResponseTooLarge)]);
  });

  it("passes a call's other failures and its caller's abort through as they are", async () => {
    await expect(cutAtTheLimit(undefined, () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    const caller = new AbortController();
    const call = cutAtTheLimit(
      caller.signal,
      (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    );
    caller.abort(new Error('cancelled'));
    await expect(call).rejects.toThrow('cancelled');
  });
});
