import { watchSessionStream } from './session-stream-watch';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A stream the test ends (or fails) when it says. */
function openStream() {
  let control!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (control = c) });
  return { body, end: () => control.close(), fail: () => control.error(new Error('reset')) };
}

/** Reads `response`'s body to its end (or failure), as the transport does. */
async function drain(response: Response): Promise<void> {
  const reader = response.body!.getReader();
  for (;;) {
    const { done } = await reader.read().catch(() => ({ done: true }));
    if (done) return;
  }
}

const GRACE = 1_000;

describe('watchSessionStream', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('says the stream is lost at once when the server answers its GET 404 (it forgot the session)', async () => {
    const lost = jest.fn();
    const watch = watchSessionStream(async () => new Response('gone', { status: 404 }), lost, GRACE);
    await watch.fetch('http://upstream/mcp', { method: 'GET' });
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('says it once the stream stayed down for the grace, not while it is reopened within it', async () => {
    const lost = jest.fn();
    const streams: Array<ReturnType<typeof openStream>> = [];
    let refused = false;
    const base: Fetch = async () => {
      if (refused) throw new TypeError('fetch failed');
      const stream = openStream();
      streams.push(stream);
      return new Response(stream.body, { status: 200 });
    };
    const watch = watchSessionStream(base, lost, GRACE);

    const first = drain(await watch.fetch('http://upstream/mcp', { method: 'GET' }));
    streams[0]!.fail();
    await first;
    jest.advanceTimersByTime(GRACE / 2);
    // Reopened within the grace: no loss.
    const second = drain(await watch.fetch('http://upstream/mcp', { method: 'GET' }));
    jest.advanceTimersByTime(GRACE * 2);
    expect(lost).not.toHaveBeenCalled();

    streams[1]!.end();
    await second;
    refused = true;
    await expect(watch.fetch('http://upstream/mcp', { method: 'GET' })).rejects.toThrow('fetch failed');
    jest.advanceTimersByTime(GRACE - 1);
    expect(lost).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('takes no stream offered (405), a request aborted by its client, and other methods as no loss', async () => {
    const lost = jest.fn();
    const aborting = new AbortController();
    const stream = openStream();
    const answers = [new Response(null, { status: 405 }), new Response(stream.body, { status: 200 })];
    const watch = watchSessionStream(async () => answers.shift()!, lost, GRACE);
    await watch.fetch('http://upstream/mcp', { method: 'GET' });
    const open = drain(await watch.fetch('http://upstream/mcp', { method: 'GET', signal: aborting.signal }));
    aborting.abort();
    stream.fail();
    await open;
    jest.advanceTimersByTime(GRACE * 2);
    expect(lost).not.toHaveBeenCalled();

    const posts = watchSessionStream(async () => new Response('gone', { status: 404 }), lost, GRACE);
    await posts.fetch('http://upstream/mcp', { method: 'POST' });
    expect(lost).not.toHaveBeenCalled();
  });

  it('says nothing once stopped (the connection closed)', async () => {
    const lost = jest.fn();
    const watch = watchSessionStream(async () => new Response(null, { status: 503 }), lost, GRACE);
    await watch.fetch('http://upstream/mcp', { method: 'GET' });
    watch.stop();
    jest.advanceTimersByTime(GRACE * 2);
    expect(lost).not.toHaveBeenCalled();
  });
});
