import { LEGACY_STREAM_CHANNEL, type StreamMessage } from '../../../../lib/db/legacy-store';
import { PRIMING_KEY, streamKeys } from '../../../../lib/protocol/legacy-stream-keys';
import type { SseWriter } from './sse-writer';
import { deliverStream, planPage, RECONNECT_RETRY_MS, type Frame } from './stream-delivery';

const request = (id: number, requestId: string): StreamMessage => ({
  id,
  messageKey: streamKeys.request(requestId),
  message: { jsonrpc: '2.0', id: requestId, method: 'elicitation/create', params: {} },
  final: false,
});
const withdrawal = (id: number, requestId: string): StreamMessage => ({
  id,
  messageKey: streamKeys.withdrawal(requestId),
  message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } },
  final: false,
});
const response = (id: number, callId: number | string = 1): StreamMessage => ({
  id,
  messageKey: streamKeys.response(`x${id}`),
  message: { jsonrpc: '2.0', id: callId, result: {} },
  final: true,
});
const priming = (id: number): StreamMessage => ({ id, messageKey: PRIMING_KEY, message: {}, final: false });
const closeRequest = (id: number): StreamMessage => ({
  id,
  messageKey: streamKeys.closeStream(id),
  message: {},
  final: false,
});

const written = (frames: Frame[]) =>
  frames.map((f) => (f.kind === 'mark' ? `mark ${f.eventId}` : `message ${f.eventId}`));

describe('planPage', () => {
  it('writes every row in stream order, each under its row id, and moves the cursor to the last', () => {
    const page = planPage([request(4, 'a'), request(7, 'b'), withdrawal(9, 'a')], 3, {});
    expect(page.frames).toEqual([
      { kind: 'message', eventId: 4, message: request(4, 'a').message, messageKey: request(4, 'a').messageKey },
      { kind: 'message', eventId: 7, message: request(7, 'b').message, messageKey: request(7, 'b').messageKey },
      { kind: 'message', eventId: 9, message: withdrawal(9, 'a').message, messageKey: withdrawal(9, 'a').messageKey },
    ]);
    expect(page.lastId).toBe(9);
    expect(page.end).toBeUndefined();
  });

  it('carries a withdrawal after the request it withdraws, as a notifications/cancelled naming it', () => {
    const page = planPage([request(1, 'mcp-srq:x:1:k'), withdrawal(2, 'mcp-srq:x:1:k'), response(3)], 0, {});
    expect(written(page.frames)).toEqual(['message 1', 'message 2', 'message 3']);
    expect(page.frames[1]).toMatchObject({
      message: { method: 'notifications/cancelled', params: { requestId: 'mcp-srq:x:1:k' } },
    });
  });

  it('keeps the cursor where it was on an empty page', () => {
    expect(planPage([], 12, {})).toEqual({ frames: [], lastId: 12 });
  });

  it('moves the cursor past control entries it does not write, so they are not read again', () => {
    const page = planPage([priming(5), closeRequest(6)], 4, { resumable: false, honorClose: true });
    expect(page.frames).toEqual([]);
    expect(page.lastId).toBe(6);
    expect(page.end).toBeUndefined();
  });

  it('turns the priming entry into a resumption mark with the reconnect delay, for a client that resumes only', () => {
    expect(planPage([priming(1), request(2, 'a')], 0, { resumable: true }).frames).toEqual([
      { kind: 'mark', eventId: 1, retryMs: RECONNECT_RETRY_MS },
      { kind: 'message', eventId: 2, message: request(2, 'a').message, messageKey: request(2, 'a').messageKey },
    ]);
    expect(written(planPage([priming(1), request(2, 'a')], 0, { resumable: false }).frames)).toEqual(['message 2']);
  });

  it("ends a resumable live delivery at a handler's close request, with a mark the client resumes after", () => {
    const page = planPage([request(1, 'a'), closeRequest(2), request(3, 'b'), response(4)], 0, {
      resumable: true,
      honorClose: true,
    });
    expect(page.frames).toEqual([
      { kind: 'message', eventId: 1, message: request(1, 'a').message, messageKey: request(1, 'a').messageKey },
      { kind: 'mark', eventId: 2, retryMs: RECONNECT_RETRY_MS },
    ]);
    expect(page.end).toBe('closed');
    expect(page.lastId).toBe(2);
  });

  it('passes over a close request on a delivery that does not honour it (a resumed or standing stream)', () => {
    for (const options of [{ resumable: true }, { honorClose: true }, {}]) {
      const page = planPage([closeRequest(1), request(2, 'a'), response(3)], 0, options);
      expect(written(page.frames)).toEqual(['message 2', 'message 3']);
      expect(page.end).toBe('final');
    }
  });

  it("ends a call's delivery at its final response: rows after it on the page are not written", () => {
    const page = planPage([request(1, 'a'), response(2), request(3, 'late')], 0, {});
    expect(written(page.frames)).toEqual(['message 1', 'message 2']);
    expect(page).toMatchObject({ end: 'final', lastId: 2 });
  });

  it('leaves the response out of a stream that must not carry it, and still ends there', () => {
    const page = planPage([request(1, 'a'), response(2)], 0, { withoutResponse: true });
    expect(written(page.frames)).toEqual(['message 1']);
    expect(page).toMatchObject({ end: 'final', lastId: 2 });
  });

  it("writes the final response as renderFinal returns it (a task's tasks/result), and nothing else changed", () => {
    const renderFinal = (m: Record<string, unknown>) => ({ ...m, id: 'tasks-result-9' });
    const page = planPage([request(1, 'a'), response(2)], 0, { renderFinal });
    expect(page.frames).toEqual([
      { kind: 'message', message: request(1, 'a').message, eventId: 1, messageKey: request(1, 'a').messageKey },
      {
        kind: 'message',
        message: { jsonrpc: '2.0', id: 'tasks-result-9', result: {} },
        eventId: 2,
        messageKey: response(2).messageKey,
      },
    ]);
    expect(page).toMatchObject({ end: 'final', lastId: 2 });
  });

  it("writes every response on a 2024-11-05 session's shared stream and keeps following it", () => {
    const page = planPage([response(1, 'a'), request(2, 'b'), response(3, 'c')], 0, { untilFinal: false });
    expect(written(page.frames)).toEqual(['message 1', 'message 2', 'message 3']);
    expect(page).toEqual(expect.objectContaining({ lastId: 3 }));
    expect(page.end).toBeUndefined();
  });
});

/** An SSE writer that records what it was given; `closeAfter` frames close it like a consumer that left. */
function recordingWriter(closeAfter = Infinity) {
  const frames: string[] = [];
  let drains = 0;
  const writer: SseWriter = {
    write: (message, eventId) => void frames.push(`message ${eventId}`),
    mark: (eventId, retryMs) => void frames.push(`mark ${eventId} retry ${retryMs}`),
    event: (name) => void frames.push(`event ${name}`),
    comment: () => undefined,
    drained: async () => void (drains += 1),
    end: () => undefined,
    endForReconnect: (retryMs) => void frames.push(`reconnect retry ${retryMs}`),
    get closed() {
      return frames.length >= closeAfter;
    },
    lastEventId: undefined,
  };
  return { writer, frames, drains: () => drains };
}

/** One stream's rows, read a page at a time after a cursor, as the store reads them. */
function pagedStream(rows: StreamMessage[], pageSize: number) {
  const reads: number[] = [];
  const legacy = {
    readStream: async (_streamId: string, afterId: number) => {
      reads.push(afterId);
      if (reads.length > 20) throw new Error('the delivery reads without moving its cursor');
      return rows.filter((row) => row.id > afterId).slice(0, pageSize);
    },
  };
  return { legacy, reads };
}

describe('deliverStream', () => {
  const unusedWaiter = {
    waitFor: () => Promise.reject(new Error('a drain-only delivery does not wait')),
  };

  it('replays after the given event id, page by page, letting the consumer drain between pages', async () => {
    const rows = [request(1, 'a'), request(2, 'b'), request(3, 'c'), withdrawal(4, 'b'), request(5, 'd')];
    const { legacy, reads } = pagedStream(rows, 2);
    const sse = recordingWriter();
    const end = await deliverStream(
      { legacy, waiter: unusedWaiter },
      's',
      1,
      sse.writer,
      new AbortController().signal,
      {
        drainOnly: true,
      },
    );
    expect(end).toBe('stopped');
    expect(sse.frames).toEqual(['message 2', 'message 3', 'message 4', 'message 5']);
    expect(reads).toEqual([1, 3, 5]);
    expect(sse.drains()).toBe(2);
  });

  it('follows the stream through the waiter on its channel, re-reading after the cursor until the final message', async () => {
    const rows = [priming(1), request(2, 'a'), response(3)];
    const { legacy, reads } = pagedStream(rows, 2);
    const waits: Array<[string, string]> = [];
    let quiet = 1; // one wait that times out with nothing new
    const waiter = {
      async waitFor<T>(channel: string, payload: string, read: () => Promise<T | undefined>): Promise<T | undefined> {
        waits.push([channel, payload]);
        if (quiet-- > 0) return undefined;
        return read();
      },
    };
    const sse = recordingWriter();
    const end = await deliverStream({ legacy, waiter }, 'call:x', 0, sse.writer, new AbortController().signal, {
      resumable: true,
    });
    expect(end).toBe('final');
    expect(sse.frames).toEqual([`mark 1 retry ${RECONNECT_RETRY_MS}`, 'message 2', 'message 3']);
    expect(reads).toEqual([0, 2]);
    expect(waits).toEqual(Array(3).fill([LEGACY_STREAM_CHANNEL, 'call:x']));
  });

  it('reports a close request honoured, and writes nothing after it', async () => {
    const { legacy } = pagedStream([request(1, 'a'), closeRequest(2), response(3)], 10);
    const sse = recordingWriter();
    const waiter = { waitFor: <T>(_c: string, _p: string, read: () => Promise<T | undefined>) => read() };
    const end = await deliverStream({ legacy, waiter }, 's', 0, sse.writer, new AbortController().signal, {
      resumable: true,
      honorClose: true,
    });
    expect(end).toBe('closed');
    expect(sse.frames).toEqual(['message 1', `mark 2 retry ${RECONNECT_RETRY_MS}`]);
  });

  it('stops without reading once the client went away or the stream closed', async () => {
    const { legacy, reads } = pagedStream([request(1, 'a')], 10);
    const stopped = new AbortController();
    stopped.abort();
    expect(
      await deliverStream({ legacy, waiter: unusedWaiter }, 's', 0, recordingWriter().writer, stopped.signal),
    ).toBe('stopped');
    const closed = recordingWriter(0);
    expect(
      await deliverStream({ legacy, waiter: unusedWaiter }, 's', 0, closed.writer, new AbortController().signal),
    ).toBe('stopped');
    expect(reads).toEqual([]);
  });

  it('once the drain begins, writes what is recorded without waiting for more, and ends drained', async () => {
    const rows = [priming(1), request(2, 'a')];
    const { legacy, reads } = pagedStream(rows, 10);
    const drain = new AbortController();
    const waiter = {
      // The process starts stopping while the delivery waits for rows that are not there yet.
      async waitFor<T>(_c: string, _p: string, _read: () => Promise<T | undefined>, _ms: number, signal?: AbortSignal) {
        rows.push(request(3, 'b'));
        drain.abort();
        expect(signal?.aborted).toBe(true);
        return undefined;
      },
    };
    const sse = recordingWriter();
    const end = await deliverStream({ legacy, waiter }, 'call:x', 2, sse.writer, new AbortController().signal, {
      resumable: true,
      drain: drain.signal,
    });
    expect(end).toBe('drained');
    expect(sse.frames).toEqual(['message 3']);
    expect(reads).toEqual([2, 3]);
  });

  it('stops following between pages once the consumer is gone', async () => {
    const { legacy, reads } = pagedStream([request(1, 'a'), request(2, 'b'), request(3, 'c'), response(4)], 2);
    const sse = recordingWriter(2); // the consumer leaves after the first page
    const end = await deliverStream(
      { legacy, waiter: unusedWaiter },
      's',
      0,
      sse.writer,
      new AbortController().signal,
      {
        drainOnly: true,
      },
    );
    expect(end).toBe('stopped');
    expect(sse.frames).toEqual(['message 1', 'message 2']);
    expect(reads).toEqual([0]);
  });
});
