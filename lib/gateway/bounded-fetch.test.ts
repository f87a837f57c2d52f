import { boundedFetch, UpstreamResponseTooLarge } from './bounded-fetch';

const answering =
  (body: ConstructorParameters<typeof Response>[0], headers: Record<string, string> = {}) =>
  async () =>
    new Response(body, { headers });

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

  it('fails a streamed body once its bytes pass the limit', async () => {
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: {}\n\n'));
      },
    });
    const response = await boundedFetch(100, answering(endless, { 'content-type': 'text/event-stream' }))('http://u');
    await expect(response.text()).rejects.toThrow('its response is over 100 bytes');
  });
});
